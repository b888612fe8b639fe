export declare const OUTSIDE_REFERENCES: RegExp[];
export declare function outsideReferences(text: string, where: string): string[];
