/** What a person or key may do on /debug: `viewer` reads; `admin` also manages access and exports and deletes data. */
export type Role = 'viewer' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'admin'];
