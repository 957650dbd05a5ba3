import { expect } from 'chai';
import { crc16, crcValid, dynamicBrCode, parseEmv, PIX_GUI } from '../../domain/collection/br-code';

describe('BR Code of a dynamic PIX charge', () => {
  it('computes CRC16-CCITT (0xFFFF) as the BR Code manual does: "123456789" gives 29B1', () => {
    expect(crc16('123456789')).to.equal('29B1');
  });

  it('carries the PIX GUI and the location in tag 26, no amount, and a valid CRC in tag 63', () => {
    const code = dynamicBrCode({ location: 'psp.example.com/qr/v2/cobv/abc', merchantName: 'Fundo de Recebíveis São João Ltda', merchantCity: 'São Paulo' });
    const fields = parseEmv(code);
    expect(fields.get('00')).to.equal('01');
    const account = parseEmv(fields.get('26')!);
    expect(account.get('00')).to.equal(PIX_GUI);
    expect(account.get('25')).to.equal('psp.example.com/qr/v2/cobv/abc');
    expect(fields.has('54')).to.equal(false);
    expect(fields.get('53')).to.equal('986');
    expect(fields.get('58')).to.equal('BR');
    expect(fields.get('59')).to.equal('FUNDO DE RECEBIVEIS SAO J');
    expect(fields.get('60')).to.equal('SAO PAULO');
    expect(fields.get('63')).to.match(/^[0-9A-F]{4}$/);
    expect(crcValid(code)).to.equal(true);
  });

  it('finds a changed character through the CRC', () => {
    const code = dynamicBrCode({ location: 'psp.example.com/qr/v2/cobv/abc', merchantName: 'X', merchantCity: 'Y' });
    expect(crcValid(code.replace('abc', 'abd'))).to.equal(false);
  });

  it('refuses a field whose length runs past the end', () => {
    expect(() => parseEmv('0005AB')).to.throw(/malformed/);
  });
});
