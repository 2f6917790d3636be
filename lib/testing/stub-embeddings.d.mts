export declare const DIMENSIONS: number;
export declare function stubEmbedding(text: string): number[];
