/* Test environment only, never shipped: Go's Windows runtime (1.22 and
 * newer) takes its random bytes from ProcessPrng in bcryptprimitives.dll,
 * which every Windows since 8 has but Debian 12's Wine 8.0 lacks. This
 * stand-in, copied into the Wine prefix's system32, answers from
 * BCryptGenRandom, so the release's Windows binary can run under that Wine. */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
