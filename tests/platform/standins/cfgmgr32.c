/* A stand-in for Windows' cfgmgr32.dll in the Wine test prefix only (make test-windows), never shipped.
 * Wine 8.0's cfgmgr32 lacks CM_MapCrToWin32Err, which pyserial's port list (serial.tools.list_ports_windows)
 * looks up when imported. Every other function is forwarded to Wine's setupapi, as Wine's own cfgmgr32
 * does (the forwarders are listed in cfgmgr32.def, made from Wine's export table). */
#include <windows.h>

typedef DWORD CONFIGRET;
enum { CR_SUCCESS = 0, CR_OUT_OF_MEMORY = 2, CR_INVALID_POINTER = 3, CR_INVALID_DATA = 31, CR_NO_SUCH_VALUE = 37,
       CR_BUFFER_SMALL = 26, CR_ACCESS_DENIED = 51, CR_NO_SUCH_DEVNODE = 13, CR_INVALID_DEVNODE = 5 };

__declspec(dllexport) DWORD WINAPI CM_MapCrToWin32Err(CONFIGRET code, DWORD fallback)
{
    switch (code) {
    case CR_SUCCESS: return ERROR_SUCCESS;
    case CR_OUT_OF_MEMORY: return ERROR_NOT_ENOUGH_MEMORY;
    case CR_INVALID_POINTER: return ERROR_INVALID_USER_BUFFER;
    case CR_INVALID_DEVNODE: case CR_NO_SUCH_DEVNODE: return ERROR_FILE_NOT_FOUND;
    case CR_BUFFER_SMALL: return ERROR_INSUFFICIENT_BUFFER;
    case CR_INVALID_DATA: return ERROR_INVALID_DATA;
    case CR_NO_SUCH_VALUE: return ERROR_NOT_FOUND;
    case CR_ACCESS_DENIED: return ERROR_ACCESS_DENIED;
    default: return fallback;
    }
}
