/** Wording shared by the checks' messages. */

export const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

export const quote = (s: string, max = 160) => `"${s.length > max ? `${s.slice(0, max - 1)}…` : s}"`;
