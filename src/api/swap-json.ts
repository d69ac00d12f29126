// The /swap answer's JSON, written directly: the same text SwapResponseJson
// encodes to (test/api/swap-json.test.ts holds them equal on generated answers),
// without walking the Schema on every /swap. An answer the Schema would refuse
// (a field out of its range or of the wrong type) is not written here:
// `undefined` sends it through the Schema, which names the fault.
import { checksum } from "../domain/index.ts"
import type { SwapResponse } from "../swap/index.ts"
import { digits, isAddress, isAmount, pricedFits, pricedJson } from "./priced-json.ts"

/** HexJson's pattern, 0x and an even number of hex digits, without its capture group (a tx's data runs to kilobytes) */
const HEX = /^0x[0-9a-fA-F]*$/
const isHex = (d: unknown): d is string => typeof d === "string" && d.length % 2 === 0 && HEX.test(d)
const isInteger = (n: unknown): n is number => Number.isInteger(n)
const isFieldList = (fields: unknown): fields is ReadonlyArray<{ readonly name: string; readonly type: string }> =>
  Array.isArray(fields) && fields.every((f) => typeof f?.name === "string" && typeof f?.type === "string")

const permitFits = (p: SwapResponse["permit"]): boolean => {
  if (p === null) return true
  const t = p.typedData
  return (
    typeof t.domain.name === "string" &&
    typeof t.domain.version === "string" &&
    isInteger(t.domain.chainId) &&
    isAddress(t.domain.verifyingContract) &&
    isFieldList(t.types.EIP712Domain) &&
    isFieldList(t.types.Permit) &&
    t.primaryType === "Permit" &&
    isAddress(t.message.owner) &&
    isAddress(t.message.spender) &&
    isAmount(t.message.value) &&
    isAmount(t.message.nonce) &&
    isAmount(t.message.deadline)
  )
}

const issuesFit = (i: SwapResponse["issues"]): boolean =>
  i === null ||
  ((i.balance === null || (isAddress(i.balance.token) && isAmount(i.balance.actual) && isAmount(i.balance.expected))) &&
    (i.allowance === null || (isAddress(i.allowance.token) && isAddress(i.allowance.spender) && isAmount(i.allowance.actual) && isAmount(i.allowance.expected))))

/** Whether every field holds what SwapResponseJson accepts (the Schema's own checks, no more). */
const fits = (s: SwapResponse, priceChangeBps: number | null): boolean =>
  pricedFits(s) &&
  isAddress(s.sender) &&
  isAddress(s.recipient) &&
  isInteger(s.deadline) &&
  isAddress(s.tx.to) &&
  isHex(s.tx.data) &&
  isAmount(s.tx.value) &&
  (s.tx.gas === null || isAmount(s.tx.gas)) &&
  (s.approval === null || (isAddress(s.approval.token) && isAddress(s.approval.spender) && isAmount(s.approval.amount))) &&
  permitFits(s.permit) &&
  typeof s.simulated === "boolean" &&
  issuesFit(s.issues) &&
  (priceChangeBps === null || isInteger(priceChangeBps))

const fieldList = (fields: ReadonlyArray<{ readonly name: string; readonly type: string }>): string =>
  `[${fields.map((f) => `{"name":${JSON.stringify(f.name)},"type":${JSON.stringify(f.type)}}`).join(",")}]`

const permitJson = (p: NonNullable<SwapResponse["permit"]>): string => {
  const { domain, types, message } = p.typedData
  return (
    `{"typedData":{"domain":{"name":${JSON.stringify(domain.name)},"version":${JSON.stringify(domain.version)},"chainId":${JSON.stringify(domain.chainId)},"verifyingContract":"${checksum(domain.verifyingContract)}"},` +
    `"types":{"EIP712Domain":${fieldList(types.EIP712Domain)},"Permit":${fieldList(types.Permit)}},"primaryType":"Permit",` +
    `"message":{"owner":"${checksum(message.owner)}","spender":"${checksum(message.spender)}","value":"${digits(message.value)}","nonce":"${digits(message.nonce)}","deadline":"${digits(message.deadline)}"}}}`
  )
}

const issuesJson = (i: NonNullable<SwapResponse["issues"]>): string => {
  const { balance: b, allowance: a } = i
  const balance = b === null ? "null" : `{"token":"${checksum(b.token)}","actual":"${digits(b.actual)}","expected":"${digits(b.expected)}"}`
  const allowance = a === null ? "null" : `{"token":"${checksum(a.token)}","spender":"${checksum(a.spender)}","actual":"${digits(a.actual)}","expected":"${digits(a.expected)}"}`
  return `{"balance":${balance},"allowance":${allowance}}`
}

/** The 200 body of POST /swap as SwapResponseJson writes it, or undefined when the Schema must judge the answer. */
export const swapJson = (s: SwapResponse, priceChangeBps: number | null, requestId: string): string | undefined => {
  if (!fits(s, priceChangeBps) || typeof requestId !== "string") return undefined
  const { tx, approval } = s
  return (
    `{${pricedJson(s)},"sender":"${checksum(s.sender)}","recipient":"${checksum(s.recipient)}","deadline":${JSON.stringify(s.deadline)},` +
    `"tx":{"to":"${checksum(tx.to)}","data":"${tx.data}","value":"${digits(tx.value)}","gas":${tx.gas === null ? "null" : `"${digits(tx.gas)}"`}},` +
    `"approval":${approval === null ? "null" : `{"token":"${checksum(approval.token)}","spender":"${checksum(approval.spender)}","amount":"${digits(approval.amount)}"}`},` +
    `"permit":${s.permit === null ? "null" : permitJson(s.permit)},"simulated":${s.simulated},"issues":${s.issues === null ? "null" : issuesJson(s.issues)},` +
    `"priceChangeBps":${priceChangeBps === null ? "null" : JSON.stringify(priceChangeBps)},"requestId":${JSON.stringify(requestId)}}`
  )
}
