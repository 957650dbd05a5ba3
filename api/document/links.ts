/**
 * OpenAPI links: where an answer's ids lead (creation → read, contract, cancel, decisions, titles
 * and their payments; stock registration → its item; a payable → its payments and write-off; a
 * subscription → its deliveries and secret). Clients and generators read them as the flow; a
 * stateful fuzzer follows them, so the `{id}` routes get real ids instead of only 404s.
 */
type Links = Record<string, { operationId: string; parameters: Record<string, string>; description?: string }>;

const to = (operationId: string, parameter: string, expression: string) => ({ operationId, parameters: { [parameter]: expression } });

const OPERATION_ID = '$response.body#/id';
const FIRST_TITLE_ID = '$response.body#/titles/0/id';

/** From a created operation (direct or from stock): everything done to it afterwards. */
const fromOperation: Links = {
  read: to('getOperation', 'id', OPERATION_ID),
  contractSigners: to('getContractSigners', 'id', OPERATION_ID),
  sendForSignature: to('sendContractForSignature', 'id', OPERATION_ID),
  cancel: to('cancelOperation', 'id', OPERATION_ID),
  approve: to('approveOperation', 'id', OPERATION_ID),
  deny: to('denyOperation', 'id', OPERATION_ID),
  retryDisbursement: to('retryDisbursement', 'id', OPERATION_ID),
  backofficeRead: to('backofficeGetOperation', 'id', OPERATION_ID),
  backofficeSendForSignature: to('backofficeResendContract', 'id', OPERATION_ID),
  firstTitle: to('getTitle', 'id', FIRST_TITLE_ID),
  payFirstTitle: to('recordPayerPayment', 'id', FIRST_TITLE_ID),
  simulatePayerOfFirstTitle: to('simulatePayerPayment', 'id', FIRST_TITLE_ID),
};

const FIRST_ITEM_ID = '$response.body#/items/0/id';
const PAYABLE_ID = '$response.body#/id';
const WEBHOOK_ID = '$response.body#/id';

/** By the operation and status whose answer they start from. */
export const LINKS: Record<string, Record<string, Links>> = {
  createDirectOperation: { 201: fromOperation },
  requestStockAnticipation: { 201: fromOperation },
  getOperation: { 200: { firstTitle: to('getTitle', 'id', FIRST_TITLE_ID) } },
  createAssignor: { 201: { read: to('getAssignor', 'id', '$response.body#/id') } },
  registerStockItems: {
    201: {
      readFirstItem: to('getStockItem', 'item_id', FIRST_ITEM_ID),
      changeFirstItem: to('changeStockItem', 'item_id', FIRST_ITEM_ID),
      cancelFirstItem: to('cancelStockItem', 'item_id', FIRST_ITEM_ID),
    },
  },
  createAssignorPayable: {
    201: {
      read: to('getAssignorPayable', 'id', PAYABLE_ID),
      pay: to('payAssignorPayable', 'id', PAYABLE_ID),
      writeOff: to('writeOffAssignorPayable', 'id', PAYABLE_ID),
    },
  },
  createWebhook: {
    201: {
      deliveries: to('listWebhookDeliveries', 'webhook_id', WEBHOOK_ID),
      rotateSecret: to('rotateWebhookSecret', 'webhook_id', WEBHOOK_ID),
      delete: to('deleteWebhook', 'webhook_id', WEBHOOK_ID),
    },
  },
};

type Operation = { operationId?: string; responses?: Record<string, Record<string, unknown>> };

/** `paths` with each operation's links set on its answers, in place (paths already copied by the caller). */
export function addLinks(paths: Record<string, Record<string, Operation>>): void {
  const present = new Set(Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId)));
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const byStatus = operation.operationId ? LINKS[operation.operationId] : undefined;
      if (!byStatus || !operation.responses) continue;
      for (const [status, links] of Object.entries(byStatus)) {
        // A target absent from this deployment's document (the sandbox routes in prod) is not linked.
        const usable = Object.entries(links).filter(([, link]) => present.has(link.operationId));
        if (operation.responses[status]) operation.responses[status].links = Object.fromEntries(usable);
      }
    }
  }
}
