/** The names on the wire of the two SEFAZ web services (MOC 7.0, layout 4.00; distribution 1.01). */
export const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';

export const CONSULT_SERVICE = {
  namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeConsultaProtocolo4',
  action: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeConsultaProtocolo4/nfeConsultaNF',
  version: '4.00',
} as const;

export const DISTRIBUTION_SERVICE = {
  namespace: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe',
  action: 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe/nfeDistDFeInteresse',
  version: '1.01',
} as const;

/** The event that cancels an NF-e; the consult lists it beside the NF-e's own status 101. */
export const CANCELLATION_EVENT = '110111';
