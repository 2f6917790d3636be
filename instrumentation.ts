/**
 * Runs once per server process (Next calls it before the process serves its first request):
 * loads the knowledge base, so it is read once and shared through globalThis with the chat
 * route, and so a broken KB is reported loudly in the server log (file:line). The site still
 * serves; the chat answers 503 with the same message until the files are fixed.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  try {
    const { getKnowledge } = await import('./lib/knowledge');
    getKnowledge();
  } catch (error) {
    console.error(`[knowledge] THE KNOWLEDGE BASE COULD NOT BE LOADED: ${error instanceof Error ? error.message : String(error)}`);
    console.error('[knowledge] the chat answers 503 until this is fixed');
  }
}
