export interface BuildResult {
  readonly modules: number;
  readonly ms: number;
}
export declare function buildTree(root: string, out: string, options?: { readonly ifStale?: boolean; readonly logLevel?: string }): Promise<BuildResult>;
export declare function freshOrRebuiltDir(
  root: string,
  handlers?: {
    readonly onBuilt?: (built: BuildResult & { readonly out: string; readonly missing: boolean }) => void;
    readonly onFailed?: (failed: { readonly out: string; readonly error: Error }) => void;
  },
): Promise<string | undefined>;
