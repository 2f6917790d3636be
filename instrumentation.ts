/**
 * Runs once per server process, before it serves its first request (lib/server/startup.ts):
 * - validates the environment and refuses to start when it is invalid (e.g. an ADMIN_TOKEN
 *   shorter than 16 characters, a TRACE_DB_PATH under /proc), warns about settings the mode
 *   ignores, limits how long a client may take to send a request, and stamps every request
 *   with the address of its TCP connection (lib/rate-limit/client.ts);
 * - when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, registers
 *   OpenTelemetry (@vercel/otel: OTLP over HTTP, the standard OTEL_* variables) so each chat
 *   turn exports its spans (lib/telemetry/turn.ts), and each request span its path without the
 *   query (lib/telemetry/request-span.ts). Unset, nothing is loaded or registered;
 * - builds the server's parts once (lib/server/app.ts, the composition root): loads the
 *   knowledge base and starts checking it for edits, and opens the store and logs which.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { prepareServer, startApp } = await import('@/lib/server/startup');
  prepareServer();
  const { telemetryOptions, TRACER_NAME } = await import('@/lib/telemetry/turn');
  const telemetry = telemetryOptions();
  if (telemetry.enabled) {
    const { registerOTel } = await import('@vercel/otel');
    const { requestTargetProcessor } = await import('@/lib/telemetry/request-span');
    const { serverApp } = await import('@/lib/server/server-app');
    const redact = (text: string) => serverApp().redactor.redact(text).text;
    registerOTel({ serviceName: TRACER_NAME, spanProcessors: [requestTargetProcessor({ captureContent: telemetry.captureContent, redact }), 'auto'] });
  }
  await startApp();
}
