import { context, type Attributes, type AttributeValue, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';

/**
 * A tracer whose spans pass every string attribute (and event attribute) through `redact`
 * before the SDK records it: with content capture on and TRACE_REDACT set, the AI SDK's
 * prompt and response attributes (ai.prompt.messages, ai.response.text, …) carry the
 * redacted text only, whatever the model was sent. The AI SDK takes a tracer of its own
 * (experimental_telemetry.tracer), so this wraps that one tracer; nothing global changes.
 */
export function redactingTracer(tracer: Tracer, redact: (text: string) => string): Tracer {
  const value = (v: AttributeValue | undefined): AttributeValue | undefined => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? redact(x) : x)) as AttributeValue;
    return v;
  };
  const attributes = (a: Attributes | undefined): Attributes | undefined => a && Object.fromEntries(Object.entries(a).map(([k, v]) => [k, value(v)]));
  const options = (o: SpanOptions | undefined): SpanOptions | undefined => o && { ...o, attributes: attributes(o.attributes) };

  const wrap = (span: Span): Span => {
    const wrapped: Span = new Proxy(span, {
      get(target, property, receiver) {
        if (property === 'setAttribute') return (key: string, v: AttributeValue) => (target.setAttribute(key, value(v)!), wrapped);
        if (property === 'setAttributes') return (a: Attributes) => (target.setAttributes(attributes(a)!), wrapped);
        if (property === 'addEvent') {
          return (name: string, a?: Attributes | Parameters<Span['addEvent']>[2], time?: Parameters<Span['addEvent']>[2]) => {
            const isAttributes = a !== undefined && typeof a === 'object' && !(a instanceof Date) && !Array.isArray(a);
            target.addEvent(name, isAttributes ? attributes(a as Attributes) : (a as Parameters<Span['addEvent']>[2]), time);
            return wrapped;
          };
        }
        const member = Reflect.get(target, property, receiver) as unknown;
        return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(target) : member;
      },
    });
    return wrapped;
  };

  return {
    startSpan: (name, o, ctx) => wrap(tracer.startSpan(name, options(o), ctx)),
    startActiveSpan: ((name: string, ...rest: unknown[]) => {
      const fn = rest.pop() as (span: Span) => unknown;
      const [o, ctx] = rest as [SpanOptions | undefined, Context | undefined];
      const run = (span: Span) => fn(wrap(span));
      return (tracer.startActiveSpan as (n: string, o: SpanOptions, c: Context, f: (span: Span) => unknown) => unknown)(name, options(o) ?? {}, ctx ?? context.active(), run);
    }) as Tracer['startActiveSpan'],
  };
}
