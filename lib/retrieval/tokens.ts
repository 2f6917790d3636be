import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counts for budgets, with the o200k_base encoding (GPT-4o and later).
 * Budgets are in real tokens: no characters-divided-by-four estimate anywhere.
 */
export function countTokens(text: string): number {
  return countO200k(text);
}
