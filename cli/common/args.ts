/**
 * Argument parsing for the CLI entry points: strict, with one-line messages. A UsageError is
 * printed as `error: <message>` and the process exits with code 2.
 */
import { terminalText } from './terminalText';

export class UsageError extends Error {}

export interface ParsedArgs {
  flags: Map<string, string | true>;
}

/** Parse `--name value`, `--name=value` and boolean `--name`; rejects unknown flags and positionals. */
export function parseArgs(argv: string[], known: Record<string, 'string' | 'boolean'>): ParsedArgs {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}" (flags start with --)`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq >= 0 ? eq : undefined);
    const kind = known[name];
    if (!kind) throw new UsageError(`unknown flag --${name} (known: ${Object.keys(known).map((k) => '--' + k).join(', ')})`);
    if (flags.has(name)) throw new UsageError(`--${name} is given twice`);
    if (kind === 'boolean') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '' || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { flags };
}

export function intFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** "1,2,3" -> [1, 2, 3], "101-104" -> [101, 102, 103, 104], "1-3,5" -> [1, 2, 3, 5]; each a seed in [0, 2^31). */
export function seedsFlag(args: ParsedArgs, name = 'seeds'): number[] | undefined {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(v)) {
    throw new UsageError(`--${name} must be a comma-separated list of whole numbers or ranges like 1,2,3 or 101-108, got "${v}"`);
  }
  const seeds: number[] = [];
  for (const part of v.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (to < from) throw new UsageError(`--${name}: the range ${part} runs backwards`);
    if (to - from >= 50) throw new UsageError(`--${name}: at most 50 seeds`);
    for (let s = from; s <= to; s++) seeds.push(s);
  }
  if (seeds.some((s) => s >= 2 ** 31)) throw new UsageError(`--${name}: seeds must be below 2^31`);
  if (new Set(seeds).size !== seeds.length) throw new UsageError(`--${name}: a seed is repeated`);
  if (seeds.length > 50) throw new UsageError(`--${name}: at most 50 seeds`);
  return seeds;
}

export function choiceFlag<T extends string>(args: ParsedArgs, name: string, choices: readonly T[]): T | undefined {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got "${String(v)}"`);
  }
  return v as T;
}

/**
 * Run a CLI's main: a UsageError prints one line pointing at --help and exits 2, any other error
 * prints one line and exits 1.
 */
export function runMain(main: () => Promise<void>, script: string): void {
  main().catch((e: unknown) => {
    // Messages quote files and flags (a header, a key, a title): never a raw control byte to the terminal.
    const message = terminalText(e instanceof Error ? e.message : String(e));
    if (e instanceof UsageError) {
      console.error(`error: ${message} (npm run ${script} -- --help)`);
      process.exit(2);
    }
    console.error(`error: ${message}`);
    process.exit(1);
  });
}
