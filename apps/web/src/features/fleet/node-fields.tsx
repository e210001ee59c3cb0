"use client";
import { API_FAMILIES, API_FAMILY_LABELS, CHAINS, NETWORKS, type ApiFamily } from "@rpcpulse/domain";
import { useState } from "react";
import { Field } from "@/components/field.js";

export interface NodeFieldValues {
  network?: string;
  apiFamily?: string;
  clientName?: string;
  clientVersion?: string;
  name?: string;
  localRpcUrl?: string;
  publicUrl?: string;
  region?: string;
}

function familiesOf(networkSlug: string): readonly ApiFamily[] {
  const network = NETWORKS.find((n) => n.slug === networkSlug);
  return CHAINS.find((c) => c.slug === network?.chain)?.families ?? API_FAMILIES;
}

/** The node's settings: network from the catalogue, then only the API families its chain speaks. */
export function NodeFields({ values, errors }: { values: NodeFieldValues; errors?: Record<string, string> }) {
  const [network, setNetwork] = useState(values.network ?? NETWORKS[0]!.slug);
  const families = familiesOf(network);
  const [family, setFamily] = useState(values.apiFamily ?? families[0]!);
  const familyValue = families.includes(family as ApiFamily) ? family : families[0]!;
  return (
    <div className="form-grid">
      <div className="field">
        <label htmlFor="f-network">Network</label>
        <select id="f-network" name="network" value={network} onChange={(e) => setNetwork(e.target.value)}>
          {CHAINS.map((c) => (
            <optgroup key={c.slug} label={c.name}>
              {NETWORKS.filter((n) => n.chain === c.slug).map((n) => (
                <option key={n.slug} value={n.slug}>
                  {n.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {errors?.network ? <span className="error">{errors.network}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="f-apiFamily">API family</label>
        <select id="f-apiFamily" name="apiFamily" value={familyValue} onChange={(e) => setFamily(e.target.value)}>
          {families.map((f) => (
            <option key={f} value={f}>
              {API_FAMILY_LABELS[f]}
            </option>
          ))}
        </select>
        {errors?.apiFamily ? <span className="error">{errors.apiFamily}</span> : null}
      </div>
      <Field
        name="name"
        label="Name"
        required
        defaultValue={values.name}
        error={errors?.name}
        hint="Unique in this organization, e.g. hive-api-1."
        maxLength={64}
      />
      <Field
        name="region"
        label="Region (optional)"
        defaultValue={values.region}
        error={errors?.region}
        placeholder="eu-central"
        maxLength={64}
      />
      <Field
        name="clientName"
        label="Client"
        required
        defaultValue={values.clientName}
        error={errors?.clientName}
        placeholder="hived, geth, polkadot…"
        maxLength={64}
      />
      <Field
        name="clientVersion"
        label="Client version (optional)"
        defaultValue={values.clientVersion}
        error={errors?.clientVersion}
        placeholder="1.27.11"
        maxLength={64}
      />
      <Field
        name="localRpcUrl"
        label="Local RPC URL"
        required
        defaultValue={values.localRpcUrl}
        error={errors?.localRpcUrl}
        hint="As the agent on the host reaches the node."
        placeholder="http://127.0.0.1:8091"
      />
      <Field
        name="publicUrl"
        label="Public URL (optional)"
        defaultValue={values.publicUrl}
        error={errors?.publicUrl}
        placeholder="https://api.example.com"
      />
    </div>
  );
}
