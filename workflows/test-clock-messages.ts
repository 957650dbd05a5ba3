import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AuditedRequest } from '../domain/audit-chain';

/** Where a test clock's time stands, as the clock tells its operations. */
export interface ClockTimeInput { frozenTime: string }
/** Staff's advance carries its request (`audit`): the clock's row and the audit row commit together. */
export interface AdvanceInput extends ClockTimeInput { audit?: AuditedRequest }
export interface OperationAtClock { workflowId: string; frozenTime: string }

export interface TestClockWorkflowInput {
  clockId: string;
  originatorId: string;
  frozenTime: string;
  /** When the clock deletes itself (30 days after creation). */
  deletesAfter: string;
  /** Set when the clock continued as new: the operations it holds carry over. */
  operations?: string[];
}

export interface TestClockState { frozenTime: string; advancing: boolean; operations: number; waitingFor: number }

export const testClockStateQuery = defineQuery<TestClockState>('state');
/** Operation → clock: an operation created on the clock joins it. */
export const operationAttachedSignal = defineSignal<[{ workflowId: string }]>('operationAttached');
/** Operation → clock: everything due up to `frozenTime` is done. */
export const operationCaughtUpSignal = defineSignal<[OperationAtClock]>('operationCaughtUp');
/** Clock → operation: the clock now stands at `frozenTime`; answer with operationCaughtUp. */
export const clockAdvancedSignal = defineSignal<[ClockTimeInput]>('clockAdvanced');
/** Clock → operation: the clock was deleted; its title tracking ends. */
export const clockDeletedSignal = defineSignal('clockDeleted');
/** api → clock: move to a later time; refused while an advance runs. */
export const advanceClockUpdate = defineUpdate<TestClockState, [AdvanceInput]>('advance');
/** api → clock: deleted by its originator. */
export const deleteClockSignal = defineSignal('delete');
