export declare const SOURCE_DIRS: readonly string[];
export declare function freshBuildDir(root: string): string | undefined;
