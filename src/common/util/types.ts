/** Type helpers shared by every layer. */

/** `T` with its `readonly` modifiers removed: for building a value field by field before handing it out as `T`. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
