/** The pinned Node LTS version (scripts/node-lts.mjs). */
export declare const NODE_LTS: string;
/** The path of a Node `NODE_LTS` binary for the clone at `repoRoot`, fetched when missing. */
export declare function nodeLts(repoRoot: string): Promise<string>;
