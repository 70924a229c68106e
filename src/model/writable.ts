/** T with its `readonly` dropped: a value of T while it is built key by key (absent optional keys stay absent). */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };
