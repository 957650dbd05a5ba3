import { expect } from 'chai';
import { Money } from '../../domain/money';
import { testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { formatCnpj, cnpj } from '../support/documents';
import { tokenFor } from '../support/factories';
import { newIdempotencyKey } from '../support/idempotency';
import { buildOperationsIntegrator, createDirect, directBody, startOperationsTest } from '../support/operations';
import { dueIn, receivable } from '../support/simulate';
import { bodyOf, created, DISPLAY_NUMBER, UUID_V7 } from '../support/operation-checks';

/** Contract "Operation creation response" and "Title": every field they list. */
const OPERATION_FIELDS = ['id', 'display_number', 'status', 'lifecycle_status', 'opr_gross_future_value', 'opr_net_future_value', 'opr_present_value_discount',
  'opr_net_present_liquid_value', 'opr_net_liquid_value', 'other_debt_discounts', 'average_days_in_advance', 'floating_days', 'product_id',
  'needs_backoffice_approval', 'created_at', 'titles', 'fee_hierarchy', 'has_partial_anticipations', 'contract_details', 'signers_count', 'disbursement_method'];
const TITLE_FIELDS = ['id', 'external_id', 'backing_type', 'status', 'requested_net_future_value', 'net_present_liquid_value', 'present_value_discount',
  'due_date', 'qty_days_advanced', 'fee_source', 'monthly_rate_pct', 'discount_pct', 'fixed_discount_brl', 'is_partial'];
/** Contract "Monetary vocabulary": canonical name → deprecated names. */
const OPERATION_TWINS: Record<string, string[]> = {
  opr_gross_future_value: ['opr_gross_face_value'], opr_net_future_value: ['opr_net_face_value'],
  opr_present_value_discount: ['opr_discounted_value'], opr_net_present_liquid_value: ['opr_liquid_value'],
};
const TITLE_TWINS: Record<string, string[]> = {
  requested_net_future_value: ['requested_advance_value'], net_present_liquid_value: ['liquid_value'],
  present_value_discount: ['discounted_value', 'discount_brl'], net_future_value: ['net_face_value'], gross_future_value: ['gross_face_value'],
};

function expectTwins(body: Record<string, unknown>, twins: Record<string, string[]>): void {
  for (const [canonical, deprecated] of Object.entries(twins)) {
    expect(body[canonical], canonical).to.match(/^\d+\.\d{2}$/);
    for (const name of deprecated) expect(body[name], name).to.equal(body[canonical]);
  }
}

describe('POST /v1/operations/direct', () => {
  let client: ApiClient;
  let token: string;
  before(async () => ({ client, token } = await startOperationsTest()));

  describe('creation response', () => {
    // Policy: 2.5% a month, no floating days. A: 10,000.00 for 30 days → 250.00. B: 6,000.00 of 10,000.00 for 60 days → 300.00.
    const body = () => directBody({
      cnpj: formatCnpj(cnpj()),
      receivables: [
        receivable({ external_id: 'A', identifier: 'first', due_date: dueIn(30) }),
        receivable({ external_id: 'B', due_date: dueIn(60), backing_type: 'BOLETO', gross_future_value: '12000.00', gross_future_value_deductions: '2000.00', requested_net_future_value: '6000.00' }),
      ],
    });

    it('answers 201 with status filled, lifecycle_status and created_at null, UUIDv7 ids, OP-<8>-<8> and the priced totals', async () => {
      const op = await created(client, token, body());
      expect(op).to.include.all.keys(OPERATION_FIELDS);
      expect(op.id).to.match(UUID_V7);
      expect(op.display_number).to.match(DISPLAY_NUMBER);
      expect(op).to.include({
        status: 'APPROVED_DIRECT', lifecycle_status: null, created_at: null, needs_backoffice_approval: false,
        opr_gross_future_value: '22000.00', opr_net_future_value: '20000.00', opr_present_value_discount: '550.00',
        opr_net_liquid_value: '15450.00', other_debt_discounts: '0.00', opr_net_present_liquid_value: '15450.00',
        average_days_in_advance: 45, floating_days: 0, product_id: null, has_partial_anticipations: true, signers_count: 1,
        disbursement_method: 'pix_document',
      });
      expect(op.fee_hierarchy).to.be.a('string').and.not.equal('');
      expect(op.contract_details).to.deep.equal({ type: 'FULL_CONTRACT', signature_date: null, signer_token: null });
    });

    it('lists one title per receivable, in payload order, with every field of the contract\'s Title', async () => {
      const sent = body();
      const op = await created(client, token, sent);
      expect(op.titles.map((t: { external_id: string }) => t.external_id)).to.deep.equal(['A', 'B']);
      for (const title of op.titles) {
        expect(title).to.include.all.keys(TITLE_FIELDS);
        expect(title.id).to.match(UUID_V7);
      }
      const [a, b] = op.titles;
      const payers = (sent.receivables as Record<string, unknown>[]).map((r) => r.payer_document);
      expect(a).to.include({
        external_id: 'A', identifier: 'first', backing_type: 'NFE', status: 'WAITING_PAYMENT', requested_net_future_value: '10000.00',
        present_value_discount: '250.00', net_present_liquid_value: '9750.00', due_date: dueIn(30), qty_days_advanced: 30, fee_source: 'policy',
        monthly_rate_pct: 2.5, discount_pct: 0, fixed_discount_brl: '0.00', is_partial: false, payer_document: payers[0], outstanding_balance: '10000.00',
      });
      expect(b).to.include({
        external_id: 'B', backing_type: 'BOLETO', gross_future_value: '12000.00', net_future_value: '10000.00', requested_net_future_value: '6000.00',
        present_value_discount: '300.00', net_present_liquid_value: '5700.00', qty_days_advanced: 60, is_partial: true, outstanding_balance: '6000.00',
      });
    });

    it('carries every money value under its deprecated name too, with the same number', async () => {
      const op = await created(client, token, body());
      expectTwins(op, OPERATION_TWINS);
      for (const title of op.titles) expectTwins(title, TITLE_TWINS);
    });

    it('gives each operation its own display number and ids', async () => {
      const [first, second] = [await created(client, token), await created(client, token)];
      expect(second.display_number).to.not.equal(first.display_number);
      expect(second.id).to.not.equal(first.id);
    });
  });

  describe('approval gate (auto_approve_limit_brl 50,000.00)', () => {
    const gateOf = async (body: Record<string, unknown>, own = token) => {
      const op = await created(client, own, body);
      return [op.status, op.needs_backoffice_approval];
    };

    it('is born APPROVED_DIRECT at exactly the limit', async () => {
      expect(await gateOf(bodyOf('50000.00'))).to.deep.equal(['APPROVED_DIRECT', false]);
    });

    it('waits for a human one cent above it', async () => {
      expect(await gateOf(bodyOf('50000.01'))).to.deep.equal(['WAITING_APPROVAL', true]);
    });

    it('measures the sum of the requested values, not each receivable nor the NFV', async () => {
      const twoHalves = directBody({ receivables: [receivable({ net_future_value: '30000.00', requested_net_future_value: '30000.00' }), receivable({ net_future_value: '30000.00', requested_net_future_value: '30000.00' })] });
      expect(await gateOf(twoHalves)).to.deep.equal(['WAITING_APPROVAL', true]);
      expect(await gateOf(bodyOf('80000.00', {}, { requested_net_future_value: '50000.00' }))).to.deep.equal(['APPROVED_DIRECT', false]);
    });

    it('always waits for a human when the policy limit is absent or zero', async () => {
      for (const autoApproveLimitBrl of [null, Money.ZERO]) {
        const { token: own } = await buildOperationsIntegrator(client, { autoApproveLimitBrl });
        expect(await gateOf(bodyOf('100.00'), own), String(autoApproveLimitBrl)).to.deep.equal(['WAITING_APPROVAL', true]);
      }
    });
  });

  describe('idempotency and access', () => {
    it('replays a creation byte for byte with Idempotency-Replayed: true and creates one operation', async () => {
      const body = directBody();
      const headers = { 'Idempotency-Key': newIdempotencyKey() };
      const first = await client.post('/v1/operations/direct', body, { token, headers });
      const replay = await client.post('/v1/operations/direct', body, { token, headers });
      expect(first.status, first.text).to.equal(201);
      expect(first.headers.get('idempotency-replayed')).to.not.equal('true');
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('idempotency-replayed')).to.equal('true');
      expect(replay.text).to.equal(first.text);
      const operations = await testDb()('operations').where({ assignor_id: first.body.assignor_id });
      expect(operations.map((o) => o.id)).to.deep.equal([first.body.id]);
    });

    it('requires the operation:create scope', async () => {
      const { credential } = await buildOperationsIntegrator(client);
      const readOnly = await tokenFor(client, credential, ['operation:read']);
      const res = await createDirect(client, readOnly);
      expect(res.status).to.equal(403);
      expect(res.body.detail).to.include({ code: 'scope_insufficient' });
      expect(res.body.detail.required).to.deep.equal(['operation:create']);
    });
  });
});
