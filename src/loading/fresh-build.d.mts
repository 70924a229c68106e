export declare const SOURCE_DIRS: readonly string[];
export declare function freshBuildDir(root: string): string | undefined;
export declare function isFreshBuild(root: string, dist: string): boolean;
export declare function notASource(name: string): boolean;
export declare function sourceFiles(dir: string, found?: string[]): string[];
