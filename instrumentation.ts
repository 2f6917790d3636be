/**
 * Runs once when the server starts: loads the knowledge base so the first customer does
 * not wait for it, and so a broken KB is reported at startup (file:line) rather than on
 * the first question. The server still starts; the chat answers 503 with the same message
 * until the files are fixed.
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
