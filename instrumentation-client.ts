import { config } from 'zod';

/**
 * Runs in the browser before the app's own code. The AI SDK validates the chat stream with
 * zod, and zod (unless `jitless`) probes for eval with `new Function('')` when its first
 * schemas are built. The pages' Content-Security-Policy forbids eval (proxy.ts): the probe
 * fails harmlessly but is reported as a CSP violation. With jitless there is no probe and
 * no eval.
 */
config({ jitless: true });
