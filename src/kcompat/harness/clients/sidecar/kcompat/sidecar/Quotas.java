package kcompat.sidecar;

import java.util.Map;
import java.util.TreeMap;

/** Client quota entities (KIP-546, 2.6+) named as Python's entity_label names them: {@code user=alice}. */
public final class Quotas {
    private Quotas() {
    }

    /** A ClientQuotaEntity (by its entries()) or an entity's map: components sorted, a null name {@code <default>}. */
    public static String label(Object entity) {
        Object entries = entity instanceof Map ? entity : Reflect.invoke(entity, "entries");
        StringBuilder out = new StringBuilder();
        for (Map.Entry<?, ?> item : new TreeMap<Object, Object>((Map<?, ?>) entries).entrySet()) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(item.getKey()).append('=').append(item.getValue() == null ? "<default>" : item.getValue());
        }
        return out.toString();
    }
}
