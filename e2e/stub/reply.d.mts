export declare const STUB_REPLY: string;
