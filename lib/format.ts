/**
 * Numbers as people read them, one way everywhere (the /debug pages and components, the
 * CLIs' reports): `en-US` digit grouping, percentages of a share, `—` for a missing value.
 */

/** 12,345 (or `digits` decimals); `—` for undefined, NaN or infinite. */
export function formatNumber(x: number | undefined, digits?: number): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  return digits === undefined ? x.toLocaleString('en-US') : x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A share (0.09 → "9.0%", 0.25 → "25%"): one decimal below 10%, none above, or `digits`; `—` for NaN. */
export function formatPercent(share: number, digits?: number): string {
  if (Number.isNaN(share)) return '—';
  return `${(share * 100).toFixed(digits ?? (share < 0.1 ? 1 : 0))}%`;
}

/** A zod issue list as one line: "path: message; path: message" (`root` names an issue with no path). */
export function formatIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[], root = 'value'): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || root}: ${issue.message}`).join('; ');
}
