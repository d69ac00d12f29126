// Generated from ../openapi.json by openapi-typescript: bun examples/generate-client.ts. Do not edit.

export interface paths {
    "/api/v1/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a swap: exact input (amountIn) or exact output (amountOut)
         * @description The best route over the on-chain venues and the external aggregators, after gas and fees, at the latest block: the most output for amountIn, or the least input that pays amountOut after every fee (the route executor's own router only: the external aggregators quote exact input). Nothing is built or simulated.
         */
        post: operations["quote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/swap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a swap again and build its transaction
         * @description Priced at the head block, encoded as a call to the route executor (execute for exact input, executeExactOutput for exact output) and simulated from the sender with the balance and allowance it will have. Send approval first when it is not null and the allowance is short, then tx exactly as returned. With a quoteId, priceChangeBps compares the output (exact input) or the input (exact output) with the quote's.
         */
        post: operations["swap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The venues and aggregators routes may use
         * @description Their names are what includeSources, excludeSources and route[].hops[].dex use.
         */
        post: operations["sources"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The tokens routes may use
         * @description Every token held by a published pool, with its reference price when a feed gives one.
         */
        post: operations["tokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gasless/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a gasless swap and give the order to sign
         * @description The swap priced as /quote prices it, over the venues only (the relayer routes anew when it sends), with the relayer's fee: the gas of the relayed transaction at the block's base fee, priced in tokenOut, plus the service's margin; amountOut and minAmountOut are net of it too. order.typedData is the EIP-712 SwapOrder to sign (a fresh random nonce, the request's deadline); permit, when not null, is the EIP-2612 permit to sign with it so that no approval is needed. tokenIn must be an ERC-20. A relayer short of USDC answers 503 UNAVAILABLE with Retry-After. Offered when the service has a relayer; otherwise 404 NOT_FOUND (gasless swaps are not enabled).
         */
        post: operations["gaslessQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gasless/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hand a signed order to the relayer
         * @description The order's signature must recover to order.sender (or its ERC-1271 wallet accept it) for this chain and executor; its deadline must be ahead and its nonce unused; the permit's signature must recover to the sender. The order is priced again at the head and simulated with the signatures from the relayer account, then accepted: the relayer sends it, pays the gas and takes at most maxRelayerFee of tokenOut. The same signed order again answers the same tradeHash and is sent once. 400 names the field; 409 SIMULATION_FAILED when it cannot pay its terms at the head. Offered when the service has a relayer; otherwise 404 NOT_FOUND (gasless swaps are not enabled).
         */
        post: operations["gaslessSubmit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gasless/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Follow a gasless order
         * @description The order's status, its transactions and, once confirmed, what was paid. A tradeHash unknown, or submitted with another API key, is 404 NOT_FOUND. Offered when the service has a relayer; otherwise 404 NOT_FOUND (gasless swaps are not enabled).
         */
        post: operations["gaslessStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        QuoteResponse: {
            /**
             * @description the chain the service serves: 5042 (Arc) or 5042002 (Arc testnet)
             * @enum {number}
             */
            chainId: 5042 | 5042002;
            tokenIn: components["schemas"]["Address"];
            tokenOut: components["schemas"]["Address"];
            /**
             * @description exactInput when the request sent amountIn, exactOutput when it sent amountOut
             * @enum {string}
             */
            tradeType: "exactInput" | "exactOutput";
            /** @description exact input: as requested; exact output: the input the route needs at blockNumber (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountIn: string;
            /** @description the most the transaction takes: amountIn for exact input; for exact output amountIn raised by slippageBps, rounded up (the transaction reverts with Slippage above it) (a non-negative integer in the token's smallest unit, as a decimal string) */
            maxAmountIn: string;
            /** @description exact input: what the recipient gets, grossAmountOut less both fees; exact output: as requested, what the recipient gets (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountOut: string;
            /** @description exact input: amountOut less slippageBps, rounded down, the transaction reverts below it; exact output: = amountOut (a non-negative integer in the token's smallest unit, as a decimal string) */
            minAmountOut: string;
            /**
             * between(0, 2000)
             * @description the request's slippageBps
             */
            slippageBps: number;
            /** @description what the route delivers before fees (a non-negative integer in the token's smallest unit, as a decimal string) */
            grossAmountOut: string;
            fees: components["schemas"]["Fees"];
            /** @description signed basis points against the reference prices; null without a reference */
            priceImpactBps: number | null;
            /** @description gas units the route is expected to use */
            gasEstimate: components["schemas"]["Amount"] | null;
            gasCost: components["schemas"]["GasCost"] | null;
            route: components["schemas"]["RouteEntry"][];
            /** @description the block whose pools, fee and prices priced this answer (a decimal string) */
            blockNumber: string;
            /** @description this quote, signed: send it with /swap within 5 minutes to learn priceChangeBps */
            quoteId: string;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description 20-byte address, EIP-55 checksummed in answers */
        Address: string;
        Fees: {
            /** @description always tokenOut */
            token: string;
            /**
             * between(0, 10000)
             * @description protocol fee rate in basis points
             */
            protocolBps: number;
            protocolAmount: components["schemas"]["Amount"];
            /**
             * between(0, 100)
             * @description the request's feeBps; 0 without a fee
             */
            partnerBps: number;
            partnerAmount: components["schemas"]["Amount"];
            partnerRecipient: components["schemas"]["Address"] | null;
        };
        /** @description a non-negative integer in the token's smallest unit, as a decimal string */
        Amount: string;
        /** @description the gas estimate priced at the block's base fee; null when there is no gas estimate */
        GasCost: {
            /** @description gasEstimate × the block's base fee, in native USDC wei (18 decimals) (a non-negative integer in the token's smallest unit, as a decimal string) */
            native: string;
            /** @description the same in USDC's 6-decimal units, rounded down (a non-negative integer in the token's smallest unit, as a decimal string) */
            usdc: string;
            /** @description the same in tokenOut's smallest units at the reference prices; null without a price for tokenOut */
            tokenOut: components["schemas"]["Amount"] | null;
        };
        RouteEntry: {
            /**
             * between(1, 10000)
             * @description share of the input for this split (exact output: of the gross output); all entries add up to 10000
             */
            shareBps: number;
            hops: components["schemas"]["RouteHop"][];
        };
        RouteHop: {
            /** @description the venue's name (see POST /sources), or the external aggregator's */
            dex: string;
            /** @description pool address, 32-byte V4 pool id, or null when unknown */
            pool: string | null;
            tokenIn: components["schemas"]["Address"];
            tokenOut: components["schemas"]["Address"];
        };
        /** @description the sender's EIP-2612 permit for the route executor instead of an approval (ERC-20 tokenIn that implements EIP-2612): sign /swap's permit.typedData, then send its value and deadline with the signature */
        PermitSignature: {
            /** @description the permit message's value as signed (at least what the transaction takes: amountIn, or maxAmountIn for exact output): a string of digits, or a JSON number up to 2^53 */
            value: string | number;
            /** @description the permit message's deadline as signed, Unix seconds, in the future: a string of digits, or a JSON number up to 2^53 */
            deadline: string | number;
            /** @description the sender's EIP-712 signature of the Permit (owner = sender, spender = the route executor, the token's current nonce): 65 bytes, or 64 (EIP-2098), hex */
            signature: string;
        };
        SwapResponse: {
            /**
             * @description the chain the service serves: 5042 (Arc) or 5042002 (Arc testnet)
             * @enum {number}
             */
            chainId: 5042 | 5042002;
            tokenIn: components["schemas"]["Address"];
            tokenOut: components["schemas"]["Address"];
            /**
             * @description exactInput when the request sent amountIn, exactOutput when it sent amountOut
             * @enum {string}
             */
            tradeType: "exactInput" | "exactOutput";
            /** @description exact input: as requested; exact output: the input the route needs at blockNumber (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountIn: string;
            /** @description the most the transaction takes: amountIn for exact input; for exact output amountIn raised by slippageBps, rounded up (the transaction reverts with Slippage above it) (a non-negative integer in the token's smallest unit, as a decimal string) */
            maxAmountIn: string;
            /** @description exact input: what the recipient gets, grossAmountOut less both fees; exact output: as requested, what the recipient gets (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountOut: string;
            /** @description exact input: amountOut less slippageBps, rounded down, the transaction reverts below it; exact output: = amountOut (a non-negative integer in the token's smallest unit, as a decimal string) */
            minAmountOut: string;
            /**
             * between(0, 2000)
             * @description the request's slippageBps
             */
            slippageBps: number;
            /** @description what the route delivers before fees (a non-negative integer in the token's smallest unit, as a decimal string) */
            grossAmountOut: string;
            fees: components["schemas"]["Fees"];
            /** @description signed basis points against the reference prices; null without a reference */
            priceImpactBps: number | null;
            /** @description gas units the route is expected to use */
            gasEstimate: components["schemas"]["Amount"] | null;
            gasCost: components["schemas"]["GasCost"] | null;
            route: components["schemas"]["RouteEntry"][];
            /** @description the block whose pools, fee and prices priced this answer (a decimal string) */
            blockNumber: string;
            sender: components["schemas"]["Address"];
            recipient: components["schemas"]["Address"];
            /**
             * int
             * @description Unix seconds after which the transaction reverts
             */
            deadline: number;
            tx: components["schemas"]["Transaction"];
            approval: components["schemas"]["Approval"] | null;
            permit: components["schemas"]["Permit"] | null;
            /** @description true when the exact transaction was simulated from the sender and succeeded */
            simulated: boolean;
            issues: components["schemas"]["SenderIssues"] | null;
            /** @description the price against the quoteId's, in basis points, negative when worse, rounded toward zero: for exact input amountOut against the quoted amountOut, for exact output the quoted amountIn against amountIn (the change is in the input); null without a quoteId */
            priceChangeBps: number | null;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        Transaction: {
            /** @description the route executor */
            to: string;
            data: components["schemas"]["HexData"];
            /** @description native USDC to send, 18 decimals: amountIn (exact output: maxAmountIn, what is not needed comes back in the same transaction) for native USDC input, else 0 (a non-negative integer in the token's smallest unit, as a decimal string) */
            value: string;
            /** @description gas limit: the least limit at which the simulation succeeds plus headroom; null when not simulated */
            gas: components["schemas"]["Amount"] | null;
        };
        HexData: string;
        /** @description the allowance the sender needs (ERC-20 input); null for native input, and when the request carries a permit */
        Approval: {
            token: components["schemas"]["Address"];
            spender: components["schemas"]["Address"];
            amount: components["schemas"]["Amount"];
        };
        /** @description the permit to sign instead of sending the approval: present when tokenIn implements EIP-2612 and the sender's allowance to the executor is below what the transaction takes; send /swap again with permit { value, deadline, signature } and tx then needs no approval. null otherwise, when the request carried a permit, or when the allowance could not be read */
        Permit: {
            typedData: components["schemas"]["PermitTypedData"];
        };
        /** @description EIP-712 typed data for eth_signTypedData_v4 (viem signTypedData) */
        PermitTypedData: {
            domain: {
                /** @description the token's EIP-712 domain name */
                name: string;
                /** @description the token's EIP-712 domain version */
                version: string;
                /**
                 * int
                 * @description the chain served, as a number
                 */
                chainId: number;
                /** @description tokenIn */
                verifyingContract: string;
            };
            types: {
                EIP712Domain: {
                    name: string;
                    type: string;
                }[];
                Permit: {
                    name: string;
                    type: string;
                }[];
            };
            /** @enum {string} */
            primaryType: "Permit";
            /** @description EIP-2612's Permit; integers are decimal strings */
            message: {
                /** @description the sender */
                owner: string;
                /** @description the route executor */
                spender: string;
                /** @description what the transaction takes: amountIn, or maxAmountIn for exact output (a non-negative integer in the token's smallest unit, as a decimal string) */
                value: string;
                /** @description the token's nonces(sender) at blockNumber (a decimal string) */
                nonce: string;
                /** @description the swap's deadline, Unix seconds (a decimal string) */
                deadline: string;
            };
        };
        /** @description the sender's real balance and allowance at blockNumber, each when it falls short (null otherwise); the simulation fills them in. null when they could not be read */
        SenderIssues: {
            balance: components["schemas"]["BalanceIssue"] | null;
            allowance: components["schemas"]["AllowanceIssue"] | null;
        };
        BalanceIssue: {
            token: components["schemas"]["Address"];
            actual: components["schemas"]["Amount"];
            /** @description maxAmountIn; for USDC input, also tx.gas at the block's base fee (gas is paid from the same balance) (a non-negative integer in the token's smallest unit, as a decimal string) */
            expected: string;
        };
        AllowanceIssue: {
            token: components["schemas"]["Address"];
            spender: components["schemas"]["Address"];
            actual: components["schemas"]["Amount"];
            expected: components["schemas"]["Amount"];
        };
        /** @description an empty JSON object: {} */
        EmptyRequest: Record<string, never> | unknown[];
        SourcesResponse: {
            sources: components["schemas"]["Source"][];
            /** @description the block this answer was read at (a decimal string) */
            blockNumber: string;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        Source: {
            /** @description what includeSources, excludeSources and route[].hops[].dex call it */
            name: string;
            /** @enum {string} */
            type: "venue" | "aggregator";
            /** @description venue: uniswap-v2, uniswap-v3, uniswap-v4, curve-stableswap; aggregator: 0x-v2, kyberswap */
            kind: string;
            /** @description venue: its pools published at blockNumber; null for an aggregator */
            pools: number | null;
            /** @description venue: registered on the route executor and its pools published; aggregator: its circuit breaker is closed */
            healthy: boolean;
            /** @description why it is not healthy; null when it is */
            detail: string | null;
            /** @description the requests it competes on: a venue both; an aggregator both when its API takes an exact output (0x-v2: asked with buyAmount), else exactInput only (kyberswap) */
            tradeTypes: ("exactInput" | "exactOutput")[];
        };
        TokensResponse: {
            tokens: components["schemas"]["Token"][];
            /** @description the block this answer was read at (a decimal string) */
            blockNumber: string;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        Token: {
            address: components["schemas"]["Address"];
            symbol: string;
            /**
             * between(0, 255)
             * @description the token's decimals
             */
            decimals: number;
            /** @description the reference price in US dollars, exactly as its feed gives it (a decimal string); null without a feed */
            priceUsd: string | null;
        };
        GaslessQuoteResponse: {
            /**
             * @description the chain the service serves: 5042 (Arc) or 5042002 (Arc testnet)
             * @enum {number}
             */
            chainId: 5042 | 5042002;
            tokenIn: components["schemas"]["Address"];
            tokenOut: components["schemas"]["Address"];
            /**
             * @description exactInput when the request sent amountIn, exactOutput when it sent amountOut
             * @enum {string}
             */
            tradeType: "exactInput" | "exactOutput";
            /** @description exact input: as requested; exact output: the input the route needs at blockNumber (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountIn: string;
            /** @description the most the transaction takes: amountIn for exact input; for exact output amountIn raised by slippageBps, rounded up (the transaction reverts with Slippage above it) (a non-negative integer in the token's smallest unit, as a decimal string) */
            maxAmountIn: string;
            /** @description exact input: what the recipient gets, grossAmountOut less both fees and the relayer fee; exact output: as requested (a non-negative integer in the token's smallest unit, as a decimal string) */
            amountOut: string;
            /** @description exact input: amountOut less slippageBps, rounded down (the order's amountOut); exact output: = amountOut (a non-negative integer in the token's smallest unit, as a decimal string) */
            minAmountOut: string;
            /**
             * between(0, 2000)
             * @description the request's slippageBps
             */
            slippageBps: number;
            /** @description what the route delivers before fees (a non-negative integer in the token's smallest unit, as a decimal string) */
            grossAmountOut: string;
            fees: components["schemas"]["Fees"];
            /** @description signed basis points against the reference prices; null without a reference */
            priceImpactBps: number | null;
            /** @description gas units the route is expected to use */
            gasEstimate: components["schemas"]["Amount"] | null;
            gasCost: components["schemas"]["GasCost"] | null;
            route: components["schemas"]["RouteEntry"][];
            /** @description the block whose pools, fee and prices priced this answer (a decimal string) */
            blockNumber: string;
            relayerFee: components["schemas"]["RelayerFee"];
            order: components["schemas"]["GaslessOrder"];
            /** @description the permit to sign with the order instead of an approval (value = the order's amountIn, deadline = the order's): tokenIn implements EIP-2612 and the sender's allowance to the executor is short; null otherwise */
            permit: components["schemas"]["Permit"] | null;
            approval: components["schemas"]["Approval"];
            issues: components["schemas"]["SenderIssues"] | null;
            /** @description this quote, signed */
            quoteId: string;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        RelayerFee: {
            /** @description tokenOut */
            token: string;
            /** @description the most the relayer takes: (the route's gas + the order entry's, + a permit's when permit is not null) × the block's base fee, priced in tokenOut, plus the service's margin (a non-negative integer in the token's smallest unit, as a decimal string) */
            amount: string;
        };
        /** @description sign typedData and send its message with the signature to /gasless/submit */
        GaslessOrder: {
            typedData: components["schemas"]["SwapOrderTypedData"];
        };
        /** @description EIP-712 typed data for eth_signTypedData_v4 (viem signTypedData): the order, not its route */
        SwapOrderTypedData: {
            domain: {
                /** @description "Arc Route Executor" */
                name: string;
                /** @description "1" */
                version: string;
                /**
                 * int
                 * @description the chain served, as a number
                 */
                chainId: number;
                /** @description the route executor */
                verifyingContract: string;
            };
            types: {
                EIP712Domain: {
                    name: string;
                    type: string;
                }[];
                SwapOrder: {
                    name: string;
                    type: string;
                }[];
            };
            /** @enum {string} */
            primaryType: "SwapOrder";
            /** @description the SwapOrder; integers are decimal strings (feeBps a number); send it back to /gasless/submit exactly as given */
            message: {
                /** @description signs the order and pays its input */
                sender: string;
                /** @description receives the output */
                recipient: string;
                tokenIn: components["schemas"]["Address"];
                tokenOut: components["schemas"]["Address"];
                /** @description false for exact input, true for exact output */
                exactOutput: boolean;
                /** @description exact input: amountIn, paid exactly; exact output: maxAmountIn, the most paid (a non-negative integer in the token's smallest unit, as a decimal string) */
                amountIn: string;
                /** @description exact input: minAmountOut, the least the recipient receives; exact output: amountOut, received exactly (a non-negative integer in the token's smallest unit, as a decimal string) */
                amountOut: string;
                /** @description relayerFee.amount: the most the relayer takes, in tokenOut (a non-negative integer in the token's smallest unit, as a decimal string) */
                maxRelayerFee: string;
                /**
                 * between(0, 100)
                 * @description the partner fee
                 */
                feeBps: number;
                /** @description the partner fee's recipient; 0x0000…0000 without a fee */
                feeRecipient: string;
                /** @description a fresh random 256-bit unordered nonce (a decimal string) */
                nonce: string;
                /** @description the request's deadline, Unix seconds (a decimal string) */
                deadline: string;
            };
        };
        GaslessSubmitRequest: {
            order: components["schemas"]["SwapOrderMessage"];
            /** @description the sender's EIP-712 signature of order.typedData (eth_signTypedData_v4, viem signTypedData): 65 bytes (r, s, v) with s low, 64 (EIP-2098), or a contract wallet's ERC-1271 signature */
            signature: string;
            permit?: components["schemas"]["GaslessPermit"];
        };
        /** @description the order's typedData.message exactly as POST /gasless/quote returned it */
        SwapOrderMessage: {
            /** @description signs the order and pays its input */
            sender: string;
            /** @description receives the output */
            recipient: string;
            /** @description an ERC-20 */
            tokenIn: string;
            /** @description the token bought (native USDC as 0x0000…0000 or 0xEeee…EEeE) */
            tokenOut: string;
            /** @description false: amountIn is paid exactly and amountOut is the least received; true: amountIn is the most paid and amountOut is received exactly */
            exactOutput: boolean;
            /** @description exact input: what the sender pays; exact output: the most it pays (a decimal string) */
            amountIn: string;
            /** @description exact input: the least the recipient receives; exact output: what it receives, after every fee and the relayer's (a decimal string) */
            amountOut: string;
            /** @description the most the relayer takes, in tokenOut (a decimal string) */
            maxRelayerFee: string;
            /** @description the partner fee, basis points of the output */
            feeBps: number;
            /** @description receives the partner fee; 0x0000…0000 without one */
            feeRecipient: string;
            /** @description any unused value (unordered); the sender may cancel it on the executor (cancelNonce) (a decimal string) */
            nonce: string;
            /** @description Unix seconds after which the order cannot execute (a decimal string) */
            deadline: string;
        };
        /** @description only when /gasless/quote returned a permit: its signature, so that no approval transaction is needed */
        GaslessPermit: {
            /** @description the sender's signature of the quote's permit.typedData (value = order.amountIn, deadline = order.deadline) */
            signature: string;
        };
        GaslessSubmitResponse: {
            tradeHash: string;
            /**
             * @description pending: accepted, not yet sent; submitted: sent, not yet mined; confirmed: mined and paid; failed: mined and reverted, or refused at send (reason says why); expired: the deadline passed unsent
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed" | "expired";
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        GaslessStatusRequest: {
            /** @description what /gasless/submit answered */
            tradeHash: string;
        };
        GaslessStatusResponse: {
            tradeHash: string;
            /**
             * @description pending: accepted, not yet sent; submitted: sent, not yet mined; confirmed: mined and paid; failed: mined and reverted, or refused at send (reason says why); expired: the deadline passed unsent
             * @enum {string}
             */
            status: "pending" | "submitted" | "confirmed" | "failed" | "expired";
            /** @description every transaction the relayer sent for the order, in order (a replacement follows the one it replaced) */
            transactions: {
                hash: components["schemas"]["HexData"];
                /** @description null until mined */
                blockNumber: string | null;
            }[];
            /** @description null until confirmed */
            amountIn: string | null;
            /** @description null until confirmed */
            amountOut: string | null;
            /** @description null until confirmed */
            relayerFee: string | null;
            /** @description why the order failed or expired; null otherwise */
            reason: string | null;
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description INVALID_REQUEST */
        Error400: {
            error: {
                /** @enum {string} */
                code: "INVALID_REQUEST";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description UNAUTHORIZED */
        Error401: {
            error: {
                /** @enum {string} */
                code: "UNAUTHORIZED";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description NOT_FOUND, API_DISABLED */
        Error404: {
            error: {
                /** @enum {string} */
                code: "NOT_FOUND" | "API_DISABLED";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description METHOD_NOT_ALLOWED */
        Error405: {
            error: {
                /** @enum {string} */
                code: "METHOD_NOT_ALLOWED";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description SIMULATION_FAILED */
        Error409: {
            error: {
                /** @enum {string} */
                code: "SIMULATION_FAILED";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description INVALID_REQUEST */
        Error413: {
            error: {
                /** @enum {string} */
                code: "INVALID_REQUEST";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description NO_ROUTE */
        Error422: {
            error: {
                /** @enum {string} */
                code: "NO_ROUTE";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description RATE_LIMITED, CONCURRENCY_LIMITED */
        Error429: {
            error: {
                /** @enum {string} */
                code: "RATE_LIMITED" | "CONCURRENCY_LIMITED";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description INTERNAL */
        Error502: {
            error: {
                /** @enum {string} */
                code: "INTERNAL";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description OVERLOADED, UNAVAILABLE */
        Error503: {
            error: {
                /** @enum {string} */
                code: "OVERLOADED" | "UNAVAILABLE";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
        /** @description TIMEOUT */
        Error504: {
            error: {
                /** @enum {string} */
                code: "TIMEOUT";
                /** @description for people; may be reworded: branch on code */
                message: string;
                /** @description SIMULATION_FAILED: the executor's reason, when it gives one */
                reason?: string;
            };
            /** @description the request's id, also in the X-Request-Id header; quote it to support */
            requestId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    quote: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token sold: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE */
                    tokenIn: string;
                    /** @description the token bought: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE */
                    tokenOut: string;
                    /** @description exact input: the amount of tokenIn sold, in its smallest unit; exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountIn?: string | number;
                    /** @description exact output: what the recipient must receive after every fee, in tokenOut's smallest unit (native USDC: 18 decimals); exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountOut?: string | number;
                    /** @description partner fee in basis points of the output; 0 when not sent */
                    feeBps?: number;
                    /** @description receives the partner fee; required when feeBps > 0 */
                    feeRecipient?: string;
                    /** @description tolerance below amountOut for minAmountOut; 50 when not sent */
                    slippageBps?: number;
                    /**
                     * @description the chain the request is for, when sent: must be the chain the service serves, 5042 (Arc) or 5042002 (Arc testnet), as every answer's chainId reports
                     * @enum {integer}
                     */
                    chainId?: 5042 | 5042002;
                    /** @description only these sources (venue or aggregator names, see POST /sources) may be used */
                    includeSources?: string[];
                    /** @description these sources (venue or aggregator names, see POST /sources) are not used */
                    excludeSources?: string[];
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description QuoteResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    swap: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token sold: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE */
                    tokenIn: string;
                    /** @description the token bought: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE */
                    tokenOut: string;
                    /** @description exact input: the amount of tokenIn sold, in its smallest unit; exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountIn?: string | number;
                    /** @description exact output: what the recipient must receive after every fee, in tokenOut's smallest unit (native USDC: 18 decimals); exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountOut?: string | number;
                    /** @description partner fee in basis points of the output; 0 when not sent */
                    feeBps?: number;
                    /** @description receives the partner fee; required when feeBps > 0 */
                    feeRecipient?: string;
                    /** @description tolerance below amountOut for minAmountOut; 50 when not sent */
                    slippageBps?: number;
                    /**
                     * @description the chain the request is for, when sent: must be the chain the service serves, 5042 (Arc) or 5042002 (Arc testnet), as every answer's chainId reports
                     * @enum {integer}
                     */
                    chainId?: 5042 | 5042002;
                    /** @description only these sources (venue or aggregator names, see POST /sources) may be used */
                    includeSources?: string[];
                    /** @description these sources (venue or aggregator names, see POST /sources) are not used */
                    excludeSources?: string[];
                    /** @description sends the transaction and pays amountIn */
                    sender: string;
                    /** @description receives amountOut; the sender when not sent */
                    recipient?: string;
                    /** @description Unix seconds after which the transaction reverts: in the future, at most one hour ahead; now + 20 minutes when not sent */
                    deadline?: number;
                    /** @description the quoteId of a /quote for the same tokens, amount and fee, at most 5 minutes old: the answer's priceChangeBps compares against it */
                    quoteId?: string;
                    permit?: components["schemas"]["PermitSignature"];
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description SwapResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SwapResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    sources: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmptyRequest"];
            };
        };
        responses: {
            /** @description SourcesResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourcesResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    tokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmptyRequest"];
            };
        };
        responses: {
            /** @description TokensResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokensResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    gaslessQuote: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token sold: an ERC-20 (native USDC cannot be signed over: use the ERC-20 USDC 0x3600…0000) */
                    tokenIn: string;
                    /** @description the token bought: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE */
                    tokenOut: string;
                    /** @description exact input: the amount of tokenIn sold, in its smallest unit; exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountIn?: string | number;
                    /** @description exact output: what the recipient must receive after every fee, in tokenOut's smallest unit (native USDC: 18 decimals); exactly one of amountIn and amountOut: a string of digits, or a JSON number up to 2^53 */
                    amountOut?: string | number;
                    /** @description partner fee in basis points of the output; 0 when not sent */
                    feeBps?: number;
                    /** @description receives the partner fee; required when feeBps > 0 */
                    feeRecipient?: string;
                    /** @description tolerance below amountOut for minAmountOut; 50 when not sent */
                    slippageBps?: number;
                    /**
                     * @description the chain the request is for, when sent: must be the chain the service serves, 5042 (Arc) or 5042002 (Arc testnet), as every answer's chainId reports
                     * @enum {integer}
                     */
                    chainId?: 5042 | 5042002;
                    /** @description only these sources (venue or aggregator names, see POST /sources) may be used */
                    includeSources?: string[];
                    /** @description these sources (venue or aggregator names, see POST /sources) are not used */
                    excludeSources?: string[];
                    /** @description signs the order and pays its input (no transaction, no gas) */
                    sender: string;
                    /** @description receives amountOut; the sender when not sent */
                    recipient?: string;
                    /** @description Unix seconds after which the order cannot execute: in the future, at most one hour ahead; now + 20 minutes when not sent */
                    deadline?: number;
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description GaslessQuoteResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GaslessQuoteResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    gaslessSubmit: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GaslessSubmitRequest"];
            };
        };
        responses: {
            /** @description GaslessSubmitResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GaslessSubmitResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
    gaslessStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GaslessStatusRequest"];
            };
        };
        responses: {
            /** @description GaslessStatusResponse */
            200: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GaslessStatusResponse"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            400: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error400"];
                };
            };
            /** @description UNAUTHORIZED: see the error codes */
            401: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error401"];
                };
            };
            /** @description NOT_FOUND, API_DISABLED: see the error codes */
            404: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error404"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: see the error codes */
            405: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the methods allowed: POST */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error405"];
                };
            };
            /** @description SIMULATION_FAILED: see the error codes */
            409: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error409"];
                };
            };
            /** @description INVALID_REQUEST: see the error codes */
            413: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error413"];
                };
            };
            /** @description NO_ROUTE: see the error codes */
            422: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error422"];
                };
            };
            /** @description RATE_LIMITED, CONCURRENCY_LIMITED: see the error codes */
            429: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error429"];
                };
            };
            /** @description INTERNAL: see the error codes */
            502: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error502"];
                };
            };
            /** @description OVERLOADED, UNAVAILABLE: see the error codes */
            503: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error503"];
                };
            };
            /** @description TIMEOUT: see the error codes */
            504: {
                headers: {
                    /** @description the body's requestId */
                    "X-Request-Id"?: string;
                    /** @description the key's requests a minute (once the key was accepted) */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the key's bucket (once the key was accepted) */
                    "X-RateLimit-Remaining"?: number;
                    /** @description seconds until the key's bucket is full again (once the key was accepted) */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error504"];
                };
            };
        };
    };
}
