/** jest's moduleNameMapper entries sending `typebox` imports to the bundle. */
export declare const moduleNameMapper: Record<string, string>;
/** Builds the bundle unless this typebox version's is there. */
export declare function buildTypeboxBundle(): Promise<void>;
