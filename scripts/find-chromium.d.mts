/** Path of a Chromium/Chrome executable, or null (see find-chromium.mjs for the search order). */
export declare function findChromium(): string | null;
/** How to install a Chromium, for error messages. */
export declare const INSTALL_HINT: string;
