package kcompat.sidecar;

import com.google.gson.JsonObject;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClient;

/**
 * One AdminClient per bootstrap, user and password: other credentials never reuse a login.  A new one is
 * handed out once it has its first metadata (bounded), so what it sends when made comes before any call.
 */
public final class Connections {
    private static final Map<String, AdminClient> CLIENTS = new HashMap<String, AdminClient>();
    /** Longest a new client's first metadata is waited for (a broker it can't use: its call then says why). */
    private static final long BOOTSTRAP_MS = 5000;

    private Connections() {
    }

    static String key(JsonObject connection) {
        String password = Json.text(connection, "password");
        return Json.text(connection, "bootstrap") + "|" + Json.text(connection, "username") + "|"
            + (password == null ? "" : Integer.toHexString(password.hashCode()));
    }

    public static AdminClient client(JsonObject connection) {
        String key = key(connection);
        AdminClient client = CLIENTS.get(key);
        if (client == null) {
            Properties props = new Properties();
            props.put("bootstrap.servers", connection.get("bootstrap").getAsString());
            props.put("client.id", "kcompat-java");
            props.put("request.timeout.ms", "30000");
            String user = Json.text(connection, "username");
            if (user != null) {
                props.put("security.protocol", "SASL_PLAINTEXT");
                props.put("sasl.mechanism", "PLAIN");
                props.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required "
                    + "username=\"" + user + "\" password=\"" + Json.text(connection, "password") + "\";");
            }
            client = AdminClient.create(props);
            awaitBootstrap(client);
            CLIENTS.put(key, client);
        }
        return client;
    }

    /**
     * Wait, at most {@link #BOOTSTRAP_MS}, until a new client has its first metadata: the requests a client
     * sends once made (ApiVersions and Metadata on its first connection) then precede every call, instead of
     * racing a call the client refuses without a request of its own (a method its release lacks).
     */
    static void awaitBootstrap(AdminClient client) {
        long deadline = System.nanoTime() + BOOTSTRAP_MS * 1_000_000L;
        while (Boolean.FALSE.equals(bootstrapped(client)) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Whether the client has fetched metadata (AdminMetadataManager.isReady() from 2.0, before it the
     * Metadata's cluster no longer the bootstrap one); null when this release says neither, or its metadata
     * failed (isReady throws): nothing to wait for, the call reports it.
     */
    static Boolean bootstrapped(AdminClient client) {
        try {
            Object manager = field(client, "metadataManager");
            if (manager != null) {
                return (Boolean) manager.getClass().getMethod("isReady").invoke(manager);
            }
            Object metadata = field(client, "metadata");
            if (metadata != null) {
                Object cluster = metadata.getClass().getMethod("fetch").invoke(metadata);
                return !((Boolean) cluster.getClass().getMethod("isBootstrapConfigured").invoke(cluster));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static Object field(Object target, String name) throws IllegalAccessException {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field found = type.getDeclaredField(name);
                found.setAccessible(true);
                return found.get(target);
            } catch (NoSuchFieldException e) {
                continue;
            }
        }
        return null;
    }

    /** Close the connection's AdminClient, if one was made. */
    public static void close(JsonObject connection) {
        AdminClient closing = CLIENTS.remove(key(connection));
        if (closing != null) {
            closing.close();
        }
    }

    public static void closeAll() {
        for (AdminClient client : CLIENTS.values()) {
            client.close();
        }
        CLIENTS.clear();
    }
}
