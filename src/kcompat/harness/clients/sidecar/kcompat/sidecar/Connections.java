package kcompat.sidecar;

import com.google.gson.JsonObject;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * One AdminClient per bootstrap, user, password and surface: other credentials never reuse a login.  A new one
 * is handed out once it has its first metadata (bounded), so what it sends when made comes before any call.
 * The surface {@code controllers} bootstraps from the KRaft controller listener ({@code bootstrap.controllers},
 * KIP-919) instead of the brokers; a release without that setting, or a cluster without controllers
 * (ZooKeeper), has no such surface: NoSuchMethodException, the client lacking it.
 */
public final class Connections {
    private static final Map<String, AdminClient> CLIENTS = new HashMap<String, AdminClient>();
    /** Longest a new client's first metadata is waited for (a broker it can't use: its call then says why). */
    private static final long BOOTSTRAP_MS = 5000;
    private static final String CONTROLLERS = "controllers";

    private Connections() {
    }

    static String key(JsonObject connection) {
        String password = Json.text(connection, "password");
        return Json.text(connection, "bootstrap") + "|" + Json.text(connection, "username") + "|"
            + (password == null ? "" : Integer.toHexString(password.hashCode())) + "|" + surface(connection);
    }

    /** The surface a request names; none is the default, {@code brokers} ({@code bootstrap.servers}). */
    static String surface(JsonObject connection) {
        String named = Json.text(connection, "surface");
        return named == null ? "brokers" : named;
    }

    /** Where a new client bootstraps from: the brokers, or on the surface {@code controllers} the controllers. */
    static void bootstrap(Properties props, JsonObject connection) throws NoSuchMethodException {
        if (!CONTROLLERS.equals(surface(connection))) {
            props.put("bootstrap.servers", connection.get("bootstrap").getAsString());
            return;
        }
        try {
            AdminClientConfig.class.getField("BOOTSTRAP_CONTROLLERS_CONFIG");
        } catch (NoSuchFieldException e) {
            throw new NoSuchMethodException("kafka-clients " + Reflect.clientVersion()
                + " has no bootstrap.controllers (KIP-919: kafka-clients 3.7 on)");
        }
        String controllers = Json.text(connection, "controllers");
        if (controllers == null) {
            throw new NoSuchMethodException("the cluster has no controller listener for bootstrap.controllers "
                + "(KIP-919 needs KRaft; this is ZooKeeper)");
        }
        props.put("bootstrap.controllers", controllers);
    }

    public static AdminClient client(JsonObject connection) throws NoSuchMethodException {
        String key = key(connection);
        AdminClient client = CLIENTS.get(key);
        if (client == null) {
            Properties props = new Properties();
            bootstrap(props, connection);
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
