import type { Server } from 'node:http';
/** Serves `dir` at `base` on 127.0.0.1:`port` (0: any free port) with no headers but the content type (static-server.mjs). */
export declare function serveStatic(dir: string, base?: string, port?: number): Promise<{ server: Server; requests: string[]; url: string }>;
