import { expect } from 'chai';
import { parseTrustProxy, rateLimitAddress } from '../../domain/client-address';

/** Issue #30 item 2: who the client is behind proxies, and what a rate-limit bucket counts. */
describe('client addresses', () => {
  it('reads TRUST_PROXY as Express does: off, a hop count, subnets and named ranges, or every hop', () => {
    for (const off of [undefined, '', 'false', '0']) expect(parseTrustProxy(off), String(off)).to.equal(false);
    expect(parseTrustProxy('1')).to.equal(1);
    expect(parseTrustProxy('2')).to.equal(2);
    expect(parseTrustProxy('true')).to.equal(true);
    expect(parseTrustProxy('10.0.0.0/8, loopback, 2001:db8::/32, 192.0.2.10')).to.deep.equal(['10.0.0.0/8', 'loopback', '2001:db8::/32', '192.0.2.10']);
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '1.2.3.4.5', 'everything']) expect(() => parseTrustProxy(bad), bad).to.throw(/neither an address/);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped one as the IPv4', () => {
    expect(rateLimitAddress('2001:db8:1:2:aaaa::1', '10.0.0.1')).to.equal('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8:1:2:ffff:ffff:ffff:ffff', '10.0.0.1')).to.equal('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8:1:3::1', '10.0.0.1')).to.equal('2001:db8:1:3::/64');
    expect(rateLimitAddress('::ffff:203.0.113.9', '10.0.0.1')).to.equal('203.0.113.9');
    expect(rateLimitAddress('203.0.113.9', '10.0.0.1')).to.equal('203.0.113.9');
  });

  it('counts a forwarded value that is not an address as the connecting socket', () => {
    expect(rateLimitAddress('not-an-ip', '::ffff:127.0.0.1')).to.equal('127.0.0.1');
    expect(rateLimitAddress(undefined, '127.0.0.1')).to.equal('127.0.0.1');
  });
});
