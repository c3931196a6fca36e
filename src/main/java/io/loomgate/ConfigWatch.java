package io.loomgate;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code --watch}: reloads when the route file or a file it or the flags name changes (a CA file, a
 * key set, the API keys, the listener's certificate and key). It watches the folders that hold them,
 * so a file replaced by a rename (what editors and {@code kubectl} do: a ConfigMap swaps its
 * {@code ..data} link) is seen too. Changes that come together (an editor's several writes, a
 * certificate and its key) are one reload: it waits until the folder has been quiet for
 * {@value #QUIET_MS} ms. After each reload it watches the files the new plan names.
 */
final class ConfigWatch implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("loomgate");
    static final long QUIET_MS = 300;

    private final WatchService service;
    private final Supplier<Set<Path>> files;
    private final Consumer<String> reload;
    private final Thread thread;
    private final Set<Path> folders = new HashSet<>();

    private ConfigWatch(WatchService service, Supplier<Set<Path>> files, Consumer<String> reload) {
        this.service = service;
        this.files = files;
        this.reload = reload;
        this.thread = Thread.ofPlatform().daemon().name("loomgate-watch").unstarted(this::run);
    }

    /**
     * @param files  the files to watch now, absolute (asked again after each reload)
     * @param reload called with what changed
     */
    static ConfigWatch start(Supplier<Set<Path>> files, Consumer<String> reload) throws IOException {
        ConfigWatch watch = new ConfigWatch(FileSystems.getDefault().newWatchService(), files, reload);
        watch.register();
        watch.thread.start();
        return watch;
    }

    private void register() {
        for (Path f : files.get()) {
            Path folder = f.getParent();
            if (folder != null && folders.add(folder)) {
                try {
                    folder.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                            StandardWatchEventKinds.ENTRY_DELETE);
                } catch (IOException e) {
                    folders.remove(folder);
                    LOG.log(Level.WARNING, "--watch cannot watch " + folder + ": " + e.getMessage());
                }
            }
        }
    }

    private void run() {
        try {
            while (true) {
                String changed = changed(service.take());
                if (changed == null) {
                    continue;
                }
                for (WatchKey more; (more = service.poll(QUIET_MS, TimeUnit.MILLISECONDS)) != null; ) {
                    changed(more);   // the same change, still being written: one reload for all of it
                }
                try {
                    reload.accept("--watch: " + changed + " changed");
                    register();
                } catch (RuntimeException e) {   // the watch goes on: the next edit may fix it
                    LOG.log(Level.WARNING, "--watch: the reload after " + changed + " failed (" + e + "); still watching");
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        }
    }

    /** The watched file a key's events name, or null when they name none of them. */
    private String changed(WatchKey key) {
        Path folder = (Path) key.watchable();
        Set<Path> watched = files.get();
        String found = null;
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.context() instanceof Path name) {
                Path file = folder.resolve(name);
                if (watched.contains(file) || name.toString().startsWith("..")) {
                    found = file.toString();
                }
            }
        }
        key.reset();
        return found;
    }

    @Override
    public void close() {
        try {
            service.close();
        } catch (IOException e) {
            // nothing to do
        }
        thread.interrupt();
    }
}
