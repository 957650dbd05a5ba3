/**
 * The objects whose events tell one operation's story: the operation, its titles (whose PIX charges'
 * events are ordered among the title's) and the payables its overdue titles opened. `param` is the
 * placeholder of the operation's id, written once per use (pg's `$n` or knex's `?`).
 */
export function operationObjectIds(param: () => string): string {
  return `select ${param()}::uuid`
    + ` union all select t.id from titles as t where t.operation_id = ${param()}::uuid`
    + ' union all select p.id from titles as t join assignor_payables as p on p.origin_title_id = t.id and p.origin = \'TITLE_OVERDUE\''
    + ` where t.operation_id = ${param()}::uuid`;
}

/** How many times `operationObjectIds` names its parameter: knex's `?` bindings repeat the id as often. */
export const OPERATION_OBJECT_ID_PARAMS = 3;
