/**
 * How an endpoint treats the caller's token (semantics §1.2): `none` never resolves
 * it, `optional` treats a bad token as anonymous, `required` rejects it.
 */
export type AuthLevel = 'none' | 'optional' | 'required';
