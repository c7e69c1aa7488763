package kcompat.sidecar;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request version each call sent, read from NetworkClient's DEBUG log.
 *
 * slf4j-jdk14 routes kafka-clients' logging to java.util.logging; this handler keeps only
 * (api key, version) pairs, never the lines themselves (they carry request bodies).  Releases word
 * the line differently, hence several patterns.
 */
public final class RequestLog {
    private static final Pattern NAMED = Pattern.compile("apiKey=([A-Z_]+), apiVersion=(\\d+)");
    private static final Pattern NUMBERED = Pattern.compile("api_key=(\\d+),\\s*api_version=(\\d+)");
    private static final Pattern OLDER = Pattern.compile("Using older server API v(\\d+) to send ([A-Z_]+)");
    // Before 2.4 the newest version went out with only a TRACE line naming the API key.
    private static final Pattern LATEST = Pattern.compile("Sending ([A-Z_]+) .* with correlation id");
    private static final List<int[]> SENT = Collections.synchronizedList(new ArrayList<int[]>());

    private RequestLog() {
    }

    /** Route NetworkClient's log here; warnings of every logger still reach stderr (the sidecar's log). */
    public static void install() {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler();
        console.setLevel(Level.WARNING);
        root.addHandler(console);
        Logger network = Logger.getLogger("org.apache.kafka.clients.NetworkClient");
        network.setLevel(Level.FINEST);
        network.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getMessage() != null) {
                    read(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    static void read(String message) {
        Matcher named = NAMED.matcher(message);
        Matcher numbered = NUMBERED.matcher(message);
        Matcher older = OLDER.matcher(message);
        if (named.find()) {
            record(Reflect.apiId(named.group(1)), Integer.parseInt(named.group(2)));
        } else if (numbered.find()) {
            record(Integer.parseInt(numbered.group(1)), Integer.parseInt(numbered.group(2)));
        } else if (older.find()) {
            record(Reflect.apiId(older.group(2)), Integer.parseInt(older.group(1)));
        } else {
            Matcher latest = LATEST.matcher(message);
            if (latest.find()) {
                record(Reflect.apiId(latest.group(1)), Reflect.latestVersion(latest.group(1)));
            }
        }
    }

    private static void record(int apiKey, int version) {
        SENT.add(new int[] {apiKey, version});
    }

    /** A position in the log: {@link #sentSince} looks only at what came after it. */
    public static int mark() {
        return SENT.size();
    }

    /** The last version of any of {@code apiKeys} sent since {@code mark}, or null if none was. */
    public static JsonElement sentSince(int mark, int... apiKeys) {
        Integer found = null;
        synchronized (SENT) {
            for (int i = mark; i < SENT.size(); i++) {
                for (int apiKey : apiKeys) {
                    if (SENT.get(i)[0] == apiKey) {
                        found = SENT.get(i)[1];
                    }
                }
            }
        }
        return found == null ? JsonNull.INSTANCE : new JsonPrimitive(found);
    }
}
