// The one place that names the C library: Glibc on Linux, Darwin on macOS. Every module that
// calls libc (file descriptors, signals, stat, time) imports this shim instead, so no other file
// has to choose between the two, and no call is spelt `Glibc.read` where Darwin has no Glibc.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("tally needs a C library with POSIX calls: Glibc or Darwin")
#endif

/// UTC calendar fields of a time in seconds since 1970, through the C library's `gmtime_r` (no
/// time zone, no locale): year, month 1–12, day 1–31, hour, minute, second.
package func utcCalendar(_ seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
    var time = time_t(seconds)
    var fields = tm()
    _ = gmtime_r(&time, &fields)
    return (
        Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour),
        Int(fields.tm_min), Int(fields.tm_sec)
    )
}
