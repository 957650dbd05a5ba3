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
};

export const staffPaths = {
  '/v1/backoffice/users': {
    post: {
      operationId: 'inviteStaffUser', tags: ['backoffice'], summary: 'Invite a staff member (admins)',
      description: `One \`role\`, or several as \`roles\` (admin and approver, say). 201 with \`status\` invited and an \`enrolment_token\`, shown once and valid 72 hours: the person completes POST /v1/auth/enrol with it. 409 user_email_taken.`,
      security: adminSecurity,
      requestBody: jsonBody({
        type: 'object', required: ['email', 'name'], additionalProperties: false,
        oneOf: [{ required: ['role'] }, { required: ['roles'] }],
        properties: { email: { type: 'string', format: 'email', maxLength: 320 }, name: { type: 'string', minLength: 1, maxLength: 200 }, role, roles },
      }),
      responses: {
        201: json('The invited user, with its enrolment token (shown once)', { allOf: [{ $ref: '#/components/schemas/StaffUser' }, { type: 'object', required: ['enrolment_token'], properties: { enrolment_token: { type: 'string' } } }] }),
        ...errors(401, 403, 409, 422, 429),
      },
    },
    get: {
      operationId: 'listStaffUsers', tags: ['backoffice'], summary: 'Every staff account, by e-mail (admins)',
      description: 'Each account with its role, status (invited, active, disabled) and whether it has TOTP; never a secret.',
      security: adminSecurity,
      responses: { 200: json('Staff accounts', { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { $ref: '#/components/schemas/StaffUser' } } } }), ...errors(401, 403, 429) },
    },
  },
  '/v1/backoffice/users/{id}': {
    patch: {
      operationId: 'changeStaffUser', tags: ['backoffice'], summary: 'Change a staff member\'s role, or disable or re-enable the account (admins)',
      description: '`role` replaces the account\'s roles with one, `roles` with several. '
        + 'A disabled user\'s tokens are refused at once on every api process (401 user_disabled); a role change applies to the next request. '
        + '409 last_admin when the change would leave no enrolled, enabled admin (disabling the last one, or taking its admin role).',
      security: adminSecurity,
      parameters: [pathId('id')],
      requestBody: jsonBody({
        type: 'object', additionalProperties: false, minProperties: 1, not: { required: ['role', 'roles'], properties: { role, roles } },
        properties: { role, roles, status: { type: 'string', enum: ['active', 'disabled'] } },
      }),
      responses: { 200: json('The account after the change', { $ref: '#/components/schemas/StaffUser' }), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/auth/enrol': {
    post: {
      operationId: 'enrolStaffUser', tags: ['auth'], summary: 'Complete an invitation: set the password and receive the TOTP secret',
      description: `The enrolment token from the invitation and a password of at least ${MIN_PASSWORD_LENGTH} characters (422 password_too_weak). `
        + 'Answers the TOTP secret (base32; RFC 6238: SHA-1, 6 digits, 30 s) and its otpauth:// URI, shown once; the user is then active and signs in with a code. '
        + '404 enrolment_token_invalid when the token is unknown, used or older than 72 hours.',
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
