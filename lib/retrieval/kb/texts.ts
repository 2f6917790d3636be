/**
 * The English defaults of the text a KB's identity file can give in every language (identity.ts):
 * the widget's fixed strings and the offline model's phrases. Plain constants, so the browser can
 * load them (client.ts): the widget falls back to them.
 */

/** The widget's fixed strings and their English defaults (identity file `widget:`, snake_case keys; `label` is the launcher's text). */
export const WIDGET_LABELS = {
  placeholder: 'Ask a question…',
  send: 'Send message',
  input_label: 'Your message',
  hint: 'Enter to send · Shift+Enter for a new line · Answers can be wrong; check the help center.',
  subtitle: 'Answers from the help center',
  subtitle_offline: 'Offline demo · quotes the help center',
  offline_note: 'Offline demo mode: no language model is connected, so I answer by quoting the help center.',
  new_chat: 'New chat',
  new_chat_title: 'Start a new conversation',
  close: 'Close support chat',
  label: 'Ask support',
  launcher_close: 'Close',
  loading: 'Loading your conversation…',
  writing: 'The assistant is writing…',
  suggestions_label: 'Suggested questions',
  retry: 'Try again',
  start_over: 'Start a new conversation',
  error: 'The assistant could not answer just now. Please try again in a moment.',
  network_error: 'The chat could not reach the server. Check your connection and try again.',
} as const;

/** The offline model's fixed phrases and their English defaults (identity file `offline:`); `{company}` is the company's name and a space, or nothing. */
export const OFFLINE_PHRASES = {
  notice: '_Offline demo mode: no language model is connected, so this answer is quoted straight from the {company}help center._',
  from: 'From **{section}**:',
  related: 'Related sections:',
  no_match: "I don't know the answer to that: nothing in the help center matched your question.",
  topics: 'Here are some topics I can help with:',
  ask_topic: 'Ask about one of them, or rephrase your question with a few more details.',
  rephrase: 'Try rephrasing your question with a few more details.',
  person: 'I am the automated assistant, not a person. To reach the {company}support team, use **Talk to a person** in this chat: a person reads this conversation and answers you by email.',
} as const;
