import type { Role } from './role';

/** An entry of the members list an admin keeps: a person's role, or `none` (may not enter). */
export interface Member {
  /** Lowercase. */
  email: string;
  role: Role | 'none';
  updatedAt: string;
  updatedBy: string;
}

export interface MemberStore {
  /** Adds or changes a member; returns the entry it replaced. */
  setMember(member: Member): Promise<Member | undefined>;
  removeMember(email: string): Promise<Member | undefined>;
  getMember(email: string): Promise<Member | undefined>;
  listMembers(): Promise<Member[]>;
}
