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
  // The hand-off to a person (components/chat/handoff-*.tsx). `{company}` is the company's name
  // and a space, or nothing; `{time}` the identity file's `handoff_reply_time`, else `handoff_soon`;
  // `{email}` the customer's address; `{contact}` the identity file's `handoff` text.
  handoff_open: 'Talk to a person',
  handoff_offer_asked: 'I am an automated assistant. A person from the support team can take this conversation over.',
  handoff_offer_thin: 'I may not have the answer you need. A person from the support team can help.',
  handoff_offer_down_vote: 'Sorry that did not help. A person from the support team can look at it.',
  handoff_statement: 'A person from the {company}support team will read this conversation and answer you by email {time}. We send them the whole conversation above, your email address and your note, and nothing else.',
  handoff_statement_note: 'A person from the {company}support team will read your note and answer you by email {time}. We send them your email address and your note, and nothing else.',
  handoff_soon: 'as soon as they can',
  handoff_email_label: 'Your email address',
  handoff_note_label: 'Anything to add? (optional)',
  handoff_note_required_label: 'What do you need help with?',
  handoff_email_error: 'Enter your email address, such as name@example.com, so a person can answer you.',
  handoff_note_error: 'Tell us what you need help with: this conversation has no messages yet.',
  handoff_send: 'Send to a person',
  handoff_sending: 'Sending…',
  handoff_cancel: 'Cancel',
  handoff_error: 'Your request could not be sent just now. Please try again in a moment.',
  handoff_sent_title: 'Sent to the {company}support team.',
  handoff_sent: 'A person will answer you by email at {email} {time}. They have this conversation. You can keep asking me meanwhile: I am the automated assistant, not the person who will answer.',
  handoff_contact: 'To reach the {company}support team: {contact}.',
  handoff_contact_none: 'Contact the {company}support team directly; this chat cannot pass your conversation on.',
  handoff_close: 'Close',
} as const;

/** The longest a widget string may be (characters); 200 unless listed. */
export const WIDGET_LABEL_MAX_CHARS: Partial<Record<keyof typeof WIDGET_LABELS, number>> = {
  label: 40,
  handoff_statement: 400,
  handoff_statement_note: 400,
  handoff_sent: 400,
};

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
