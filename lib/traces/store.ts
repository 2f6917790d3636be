import type { HandoffReports, HandoffStore } from './handoff-types';
import type { InspectorStore } from './inspector-types';
import type { AdminSessionStore, ConversationStore, FeedbackStore, TraceStore } from './types';

/** Everything the server stores in one database: what each adapter implements, every port at once (the inspector's reads included). */
export type ServerStore = TraceStore & ConversationStore & FeedbackStore & AdminSessionStore & InspectorStore & HandoffStore & HandoffReports;
