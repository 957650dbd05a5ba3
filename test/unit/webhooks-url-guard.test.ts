import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_WEBHOOK_SCHEDULE_MS, loadConfig } from '../../platform/config/config';
import { minimalEnv } from '../support/config';
import { classifyAddress } from '../../domain/url-guard-ranges';
import { assertWebhookUrl, UrlRejectionCode } from '../../domain/url-guard';
import { standardSignature } from '../../domain/webhook-signature';

const ipv4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const octet = fc.integer({ min: 0, max: 255 });

async function rejection(url: string, addresses: string[] | Error, allowPrivateHosts = false): Promise<UrlRejectionCode | null> {
  const resolve = async () => { if (addresses instanceof Error) throw addresses; return addresses; };
  try {
    await assertWebhookUrl(url, resolve, { allowPrivateHosts });
    return null;
  } catch (err) {
    return (err as { code: UrlRejectionCode }).code;
  }
}

describe('webhook URL guard', () => {
  it('classifies addresses of each range, IPv6 forms that embed IPv4 by that address', () => {
    const table: Record<string, string | null> = {
      '8.8.8.8': 'public', '172.32.0.1': 'public', '2606:4700::1111': 'public', '::ffff:8.8.8.8': 'public',
      '10.0.0.1': 'ip_private', '172.16.0.1': 'ip_private', '192.168.255.255': 'ip_private', '100.64.0.1': 'ip_private',
      'fd00::1': 'ip_private', '64:ff9b::a00:1': 'ip_private', '2002:c0a8:101::': 'ip_private',
      '127.0.0.1': 'ip_loopback', '127.255.0.9': 'ip_loopback', '::1': 'ip_loopback', '::ffff:7f00:1': 'ip_loopback',
      '169.254.169.254': 'ip_link_local', 'fe80::1%eth0': 'ip_link_local',
      '0.0.0.0': 'ip_reserved', '255.255.255.255': 'ip_reserved', '224.0.0.1': 'ip_reserved', '198.51.100.7': 'ip_reserved',
      '::': 'ip_reserved', 'ff02::1': 'ip_reserved', '2001:db8::1': 'ip_reserved', '::8.8.8.8': 'ip_reserved',
      'receiver.test': null, '1.2.3': null, '1::2::3': null, '256.1.1.1': null,
    };
    for (const [address, cls] of Object.entries(table)) expect(classifyAddress(address), address).to.equal(cls);
  });

  it('puts every address of 10/8 in ip_private and of 127/8 in ip_loopback, IPv4-mapped or not', () => {
    fc.assert(fc.property(octet, octet, octet, (b, c, d) => {
      expect(classifyAddress(ipv4(10, b, c, d))).to.equal('ip_private');
      expect(classifyAddress(`::ffff:${ipv4(127, b, c, d)}`)).to.equal('ip_loopback');
    }));
  });

  it('judges an IPv4-mapped IPv6 address exactly as its IPv4 address', () => {
    fc.assert(fc.property(octet, octet, octet, octet, (a, b, c, d) => {
      expect(classifyAddress(`::ffff:${ipv4(a, b, c, d)}`)).to.equal(classifyAddress(ipv4(a, b, c, d)));
    }));
  });

  it('refuses a host when any one of its addresses is not public, and one that does not resolve', async () => {
    expect(await rejection('https://x.test/', ['8.8.8.8', '2606:4700::1111'])).to.equal(null);
    expect(await rejection('https://x.test/', ['8.8.8.8', '192.168.0.10'])).to.equal('ip_private');
    expect(await rejection('https://x.test/', [])).to.equal('url_host_unresolvable');
    expect(await rejection('https://x.test/', new Error('ENOTFOUND'))).to.equal('url_host_unresolvable');
  });

  it('lets dev and test configuration reach private and loopback hosts, never link-local or reserved ones', async () => {
    expect(await rejection('https://x.test/', ['10.1.1.1', '127.0.0.1'], true)).to.equal(null);
    expect(await rejection('https://x.test/', ['169.254.169.254'], true)).to.equal('ip_link_local');
    expect(await rejection('https://x.test/', ['240.0.0.1'], true)).to.equal('ip_reserved');
    expect(await rejection('http://x.test/', ['10.1.1.1'], true)).to.equal('url_scheme_not_https');
  });

  it('signs the Standard Webhooks reference vector to its published signature', () => {
    expect(standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'))
      .to.equal('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('defaults to a 10 s timeout and the eight-attempt schedule, and prod refuses private hosts and an extra CA', () => {
    const config = loadConfig(minimalEnv());
    expect(config.webhooks.timeoutMs).to.equal(10_000);
    expect(config.webhooks.retryScheduleMs).to.deep.equal(DEFAULT_WEBHOOK_SCHEDULE_MS);
    expect(DEFAULT_WEBHOOK_SCHEDULE_MS.map((ms) => ms / 1000)).to.deep.equal([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    const prod = minimalEnv({ SERVICE_ENV: 'prod', JWT_PRIVATE_KEY: 'pem' });
    expect(() => loadConfig({ ...prod, WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true' })).to.throw(/refused when SERVICE_ENV=prod/);
    expect(() => loadConfig({ ...prod, WEBHOOKS_EXTRA_CA_PEM: '-----BEGIN CERTIFICATE-----' })).to.throw(/refused when SERVICE_ENV=prod/);
  });
});
