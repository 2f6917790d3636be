/** What was thrown, as text for a log line, a span status or a reason: an Error's message, anything else as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
