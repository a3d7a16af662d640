/** `text` with `\`, `%` and `_` escaped, so that SQL LIKE (escape `\`) takes it literally. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
