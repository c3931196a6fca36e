package io.loomgate.http;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP-date, read strictly (RFC 9110 section 5.6.7): the preferred IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}) and the two obsolete forms a recipient must still accept,
 * RFC 850's ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime's ({@code Sun Nov  6 08:49:37 1994}).
 * Anything else is not a date: another zone than {@code GMT}, a one-digit hour, names in another
 * case, a missing comma, extra spaces, a day that does not exist. A cache reads a field that is not a
 * date as the RFCs say for that field ({@code Expires}: already expired).
 */
public final class HttpDate {

    private static final String DAY = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
    private static final String LONG_DAY = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
    private static final String MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
    private static final String TIME = "(\\d\\d):(\\d\\d):(\\d\\d)";
    private static final Pattern IMF = Pattern.compile(DAY + ", (\\d\\d) " + MONTH + " (\\d{4}) " + TIME + " GMT");
    private static final Pattern RFC850 = Pattern.compile(LONG_DAY + ", (\\d\\d)-" + MONTH + "-(\\d\\d) " + TIME + " GMT");
    private static final Pattern ASCTIME = Pattern.compile(DAY + " " + MONTH + " ([ \\d]\\d) " + TIME + " (\\d{4})");
    private static final List<String> MONTHS = List.of("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

    private HttpDate() {
    }

    /**
     * {@code epochSecond} as an IMF-fixdate, the form a sender must use (RFC 9110 section 5.6.7):
     * {@code Sun, 06 Nov 1994 08:49:37 GMT}. Written by hand: a {@code DateTimeFormatter} with day and
     * month names loads the locale's calendar data on first use, 15 to 20 ms of the first answer.
     */
    public static String format(long epochSecond) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        StringBuilder sb = new StringBuilder(29).append(DAYS[t.getDayOfWeek().ordinal()]).append(", ");
        twoDigits(sb, t.getDayOfMonth()).append(' ').append(MONTHS.get(t.getMonthValue() - 1)).append(' ');
        int year = t.getYear();
        sb.append((char) ('0' + year / 1000 % 10)).append((char) ('0' + year / 100 % 10));
        twoDigits(sb, year % 100).append(' ');
        twoDigits(sb, t.getHour()).append(':');
        twoDigits(sb, t.getMinute()).append(':');
        return twoDigits(sb, t.getSecond()).append(" GMT").toString();
    }

    private static StringBuilder twoDigits(StringBuilder sb, int n) {
        return sb.append((char) ('0' + n / 10)).append((char) ('0' + n % 10));
    }

    /** {@code value} in epoch milliseconds; empty when it is not an HTTP-date (or null). */
    public static Optional<Long> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Matcher m = IMF.matcher(value);
        if (m.matches()) {
            return at(Integer.parseInt(m.group(4)), m.group(3), m.group(2), m, 5);
        }
        m = RFC850.matcher(value);
        if (m.matches()) {
            return at(century(Integer.parseInt(m.group(4))), m.group(3), m.group(2), m, 5);
        }
        m = ASCTIME.matcher(value);
        if (m.matches()) {
            return at(Integer.parseInt(m.group(7)), m.group(2), m.group(3).strip(), m, 4);
        }
        return Optional.empty();
    }

    /** The one date that {@code lines} (every line of one field) hold; empty when there is none, or more than one line. */
    public static Optional<Long> only(List<String> lines) {
        return lines.size() == 1 ? parse(lines.getFirst()) : Optional.empty();
    }

    /** RFC 850's two-digit year: one more than 50 years in the future is the past century's (RFC 9110 section 5.6.7). */
    private static int century(int yy) {
        int now = java.time.Year.now(ZoneOffset.UTC).getValue();
        int year = now / 100 * 100 + yy;
        return year > now + 50 ? year - 100 : year;
    }

    private static Optional<Long> at(int year, String month, String day, Matcher m, int timeGroup) {
        try {
            LocalDateTime t = LocalDateTime.of(year, MONTHS.indexOf(month) + 1, Integer.parseInt(day),
                    Integer.parseInt(m.group(timeGroup)), Integer.parseInt(m.group(timeGroup + 1)), Integer.parseInt(m.group(timeGroup + 2)));
            return Optional.of(t.toInstant(ZoneOffset.UTC).toEpochMilli());
        } catch (DateTimeException e) {
            return Optional.empty();   // 31 Feb, 25:00:00
        }
    }
}
