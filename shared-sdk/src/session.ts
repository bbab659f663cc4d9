/**
 * Signing out is the host's to do (which logout call, where to go next depends on the host and
 * its sign-on configuration); a remote asks for it here. Like the unauthorized handler, the host
 * installs the implementation, so the SDK never navigates.
 */
export type SignOutHandler = () => Promise<void>;

let signOutHandler: SignOutHandler | null = null;

export function setSignOutHandler(handler: SignOutHandler | null): void {
  signOutHandler = handler;
}

export async function signOut(): Promise<void> {
  if (!signOutHandler) throw new Error('no sign-out handler: the host installs one at start');
  await signOutHandler();
}
