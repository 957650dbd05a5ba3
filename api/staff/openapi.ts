import { errors, json, jsonBody, pathId } from '../openapi/helpers';
import { STAFF_ROLES } from '../../domain/staff-roles';
import { MIN_PASSWORD_LENGTH } from './staff-service';
import { checkedByHandler } from '../openapi/handler-checked';

const role = { type: 'string', enum: STAFF_ROLES, description: 'viewer, analyst, approver or admin: each a set of backoffice scopes' };
const roles = {
  type: 'array', items: role, minItems: 1, maxItems: STAFF_ROLES.length, uniqueItems: true,
  description: 'Several roles at once (admin and approver, say): the account holds the union of their scopes. Give `role` or `roles`, not both.',
};
const adminSecurity = [{ userSession: ['backoffice:admin'] }];
const itemsOf = (schema: string) => ({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: `#/components/schemas/${schema}` } } } });

export const staffSchemas = {
  StaffUser: {
    type: 'object',
    required: ['id', 'email', 'name', 'role', 'roles', 'status', 'totp_enrolled', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' }, email: { type: 'string' }, name: { type: 'string' },
      role: { type: ['string', 'null'], description: 'The first of `roles`' }, roles: { type: 'array', items: role },
      status: { type: 'string', enum: ['invited', 'active', 'disabled'] }, totp_enrolled: { type: 'boolean' },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  RoleGrant: {
    type: 'object',
    description: 'A grant of approver or admin, waiting for a second admin: its `roles` replace the account\'s once confirmed.',
    required: ['id', 'user_id', 'roles', 'status', 'requested_by', 'requested_at', 'confirmed_by', 'confirmed_at'],
    properties: {
      id: { type: 'string', format: 'uuid' }, user_id: { type: 'string', format: 'uuid' }, roles: { type: 'array', items: role },
      status: { type: 'string', enum: ['pending', 'confirmed', 'superseded'], description: 'superseded: a newer grant for the same account replaced it' },
      requested_by: { type: 'string', format: 'uuid', description: 'The admin who asked for it' }, requested_at: { type: 'string', format: 'date-time' },
      confirmed_by: { type: ['string', 'null'], format: 'uuid' }, confirmed_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
};

const twoAdmins = 'Granting `approver` or `admin` takes two admins: the answer is 202 with the account as it is now and `pending_grant`, '
  + 'which another admin applies with POST /v1/backoffice/role-grants/{id}/confirm. ';
const withPendingGrant = { allOf: [{ $ref: '#/components/schemas/StaffUser' }, { type: 'object', required: ['pending_grant'], properties: { pending_grant: { $ref: '#/components/schemas/RoleGrant' } } }] };

export const staffPaths = {
  '/v1/backoffice/users': {
    post: {
      operationId: 'inviteStaffUser', tags: ['backoffice'], summary: 'Invite a staff member (admins)',
      description: `One \`role\`, or several as \`roles\` (admin and approver, say). 201 with \`status\` invited; the enrolment token, valid 72 hours, goes to the invitee by e-mail `
        + '(never in this answer): the person completes POST /v1/auth/enrol with it. ' + twoAdmins
        + 'Until then the account holds only the requested roles that are neither. 409 user_email_taken; 502 mail_unavailable when the e-mail could not be sent (nothing is kept).',
      security: adminSecurity,
      requestBody: jsonBody({
        type: 'object', required: ['email', 'name'], additionalProperties: false,
        oneOf: [{ required: ['role'] }, { required: ['roles'] }],
        properties: { email: { type: 'string', format: 'email', maxLength: 320 }, name: { type: 'string', minLength: 1, maxLength: 200 }, role, roles },
      }),
      responses: {
        201: json('The invited user; the enrolment token went to it by e-mail', { $ref: '#/components/schemas/StaffUser' }),
        202: json('The invited user, with the grant of approver or admin waiting for a second admin', withPendingGrant),
        ...errors(401, 403, 409, 422, 429, 502),
      },
    },
    get: {
      operationId: 'listStaffUsers', tags: ['backoffice'], summary: 'Every staff account, by e-mail (admins)',
      description: 'Each account with its role, status (invited, active, disabled) and whether it has TOTP; never a secret.',
      security: adminSecurity,
      responses: { 200: json('Staff accounts', itemsOf('StaffUser')), ...errors(401, 403, 429) },
    },
  },
  '/v1/backoffice/users/{id}': {
    patch: {
      operationId: 'changeStaffUser', tags: ['backoffice'], summary: 'Change a staff member\'s role, or disable or re-enable the account (admins)',
      description: '`role` replaces the account\'s roles with one, `roles` with several. '
        + 'A disabled user\'s tokens are refused at once on every api process (401 user_disabled); a role change applies to the next request. '
        + twoAdmins + 'A status change in the same request applies at once. '
        + '403 staff_self_change: no one changes their own roles or status. '
        + '409 last_admin when the change would leave no enrolled, enabled admin (disabling the last one, or taking its admin role).',
      security: adminSecurity,
      parameters: [pathId('id')],
      requestBody: jsonBody({
        type: 'object', additionalProperties: false, minProperties: 1, not: { required: ['role', 'roles'], properties: { role, roles } },
        properties: { role, roles, status: { type: 'string', enum: ['active', 'disabled'] } },
      }),
      responses: {
        200: json('The account after the change', { $ref: '#/components/schemas/StaffUser' }),
        202: json('The account after any status change, with the grant of approver or admin waiting for a second admin', withPendingGrant),
        ...errors(401, 403, 404, 409, 422, 429),
      },
    },
  },
  '/v1/backoffice/role-grants': {
    get: {
      operationId: 'listRoleGrants', tags: ['backoffice'], summary: 'Grants of approver or admin waiting for a second admin (admins)',
      description: 'The pending grants, oldest first: any admin but the one who asked for a grant (and its holder) may confirm it.',
      security: adminSecurity,
      responses: { 200: json('Pending grants, oldest first', itemsOf('RoleGrant')), ...errors(401, 403, 429) },
    },
  },
  '/v1/backoffice/role-grants/{id}/confirm': {
    post: {
      operationId: 'confirmRoleGrant', tags: ['backoffice'], summary: 'Apply a pending grant of approver or admin (a second admin)',
      description: 'The grant\'s roles replace the account\'s. 403 grant_needs_second_admin when the admin who asked for the grant confirms it; '
        + '403 staff_self_change when its holder does; 404 role_grant_not_found; 409 role_grant_not_pending when confirmed or superseded already; '
        + '409 last_admin when the roles would take the last enrolled, enabled admin\'s admin role.',
      security: adminSecurity,
      parameters: [pathId('id')],
      responses: {
        200: json('The grant, confirmed, with the account after it', {
          allOf: [{ $ref: '#/components/schemas/RoleGrant' }, { type: 'object', required: ['user'], properties: { user: { $ref: '#/components/schemas/StaffUser' } } }],
        }),
        ...errors(401, 403, 404, 409, 429),
      },
    },
  },
  '/v1/auth/enrol': {
    post: {
      operationId: 'enrolStaffUser', tags: ['auth'], summary: 'Complete an invitation: set the password and receive the TOTP secret',
      description: `The enrolment token from the invitation and a password of at least ${MIN_PASSWORD_LENGTH} characters (422 password_too_weak). `
        + 'Answers the TOTP secret (base32; RFC 6238: SHA-1, 6 digits, 30 s) and its otpauth:// URI, shown once; the user is then active and signs in with a code. '
        + '404 enrolment_token_invalid when the token is unknown, used or older than 72 hours, or its account was disabled (a revoked invitation).',
      security: [],
      'x-rate-limit': 'login',
      requestBody: jsonBody({
        type: 'object', required: ['enrolment_token', 'password'], additionalProperties: false,
        properties: {
          enrolment_token: { type: 'string', minLength: 1, maxLength: 200 },
          // The handler answers a short one with the contract's 422 password_too_weak, not the validator's string_too_short.
          password: checkedByHandler({ type: 'string', minLength: 1, maxLength: 500 }, { minLength: MIN_PASSWORD_LENGTH }),
        },
      }),
      responses: {
        200: json('Enrolled', {
          type: 'object', required: ['user', 'totp_secret', 'otpauth_uri'],
          properties: { user: { $ref: '#/components/schemas/StaffUser' }, totp_secret: { type: 'string' }, otpauth_uri: { type: 'string' } },
        }),
        ...errors(404, 422, 429),
      },
    },
  },
};
