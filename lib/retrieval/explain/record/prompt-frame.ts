import type { KbVersion, PromptFrame } from './record';

/**
 * A turn's system prompt as a frame: its text around three slots (the KB version's instructions,
 * its pinned block, the turn's reference text), so an old turn reads back byte for byte even
 * after the prompt's wording changes in code, and frames stay few and shared.
 */

/** A prompt's layout as its builder made it (lib/ai/prompt.ts `PromptLayout`): its frame's pieces and the texts of slots 0 and 1. */
export interface PromptPieces {
  pieces: PromptFrame;
  instructions: string;
  pinnedContext: string;
}

function slotTexts(kb: KbVersion, context: string): [string, string, string] {
  return [kb.instructions, kb.pinnedContext.trimEnd(), context.slice(kb.pinnedContext.length).trimEnd()];
}

/**
 * The prompt's text around the slots, each slot looked for after the previous one; undefined
 * unless every non-empty slot is found (a prompt not built from these texts gets a frame of
 * its own, its whole text).
 */
function searchFrame(systemPrompt: string, slots: readonly string[]): PromptFrame | undefined {
  const frame: PromptFrame = [];
  let at = 0;
  for (let slot = 0; slot < slots.length; slot++) {
    const text = slots[slot]!;
    if (!text) continue;
    const found = systemPrompt.indexOf(text, at);
    if (found < 0) return undefined;
    if (found > at) frame.push(systemPrompt.slice(at, found));
    frame.push(slot as 0 | 1 | 2);
    at = found + text.length;
  }
  if (at < systemPrompt.length) frame.push(systemPrompt.slice(at));
  return frame;
}

/** The prompt a frame gives with the KB version's texts and the turn's context text. */
export function fillFrame(frame: PromptFrame, kb: KbVersion, context: string): string {
  const slots = slotTexts(kb, context);
  return frame.map((piece) => (typeof piece === 'string' ? piece : slots[piece]!)).join('');
}

/**
 * The prompt as a frame around the KB version's texts and the turn's `context`; undefined when
 * no frame gives it back. With the prompt's own layout (lib/ai/prompt.ts, built on the KB
 * version's texts), the frame is its pieces: nothing to search for.
 */
export function promptFrameOf(systemPrompt: string, context: string, kb: KbVersion, layout?: PromptPieces): PromptFrame | undefined {
  if (layout && layout.instructions === kb.instructions && layout.pinnedContext === kb.pinnedContext) return layout.pieces;
  const frame = context.startsWith(kb.pinnedContext) ? searchFrame(systemPrompt, slotTexts(kb, context)) : undefined;
  return frame && fillFrame(frame, kb, context) === systemPrompt ? frame : undefined;
}
