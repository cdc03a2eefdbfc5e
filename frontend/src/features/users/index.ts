/**
 * The public face of the users feature. Its screens are in `screens.ts`, loaded lazily; it
 * shares nothing else (a role's label is the auth feature's, beside its roles).
 */
export {};
