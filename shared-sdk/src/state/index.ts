// The state entry (`@kol/shared-sdk/state`, a shared singleton): the atoms that span the host
// and every remote, the one query client, and the hooks that fill them.
export * from './atoms';
export * from './query';
export * from './use-task';
export * from './use-usage-limits';
export * from './use-parallel-tasks';
