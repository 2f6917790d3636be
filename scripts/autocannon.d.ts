// The part of autocannon 9's API that scripts/load.mts and bench-help.mts use (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    requests?: { method?: string; path?: string; headers?: Record<string, string>; body?: string; setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> }[];
    verifyBody?: (body: string) => boolean;
  }
  /** The run: a promise of its result, and an emitter of its events ('response': each answer as it completes). */
  type Instance = Promise<Result> & { on(event: 'response', listener: () => void): Instance };
  function autocannon(options: Options): Instance;
  export default autocannon;
}
