/** How SQLite stores what the API calls booleans and optional values (see db/schema.ts). */
export type Bool = number;
export type Nullable<T> = T | null;
