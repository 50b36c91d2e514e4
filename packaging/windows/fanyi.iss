; Inno Setup 6 script: dist\Fanyi (from build.spec) -> dist\Fanyi-Setup-<version>.exe
; packaging/build.py runs: iscc /DAppVersion=<version> packaging\windows\fanyi.iss
; Per-user install into %LOCALAPPDATA%\Programs\Fanyi: no administrator rights asked.
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{026176B0-3FED-4B9C-B8A4-CAD36AE0E119}
AppName=Fanyi
AppVerName=Fanyi {#AppVersion}
AppVersion={#AppVersion}
AppPublisher=Fanyi
DefaultDirName={autopf}\Fanyi
DefaultGroupName=Fanyi
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=Fanyi-Setup-{#AppVersion}
SetupIconFile=..\..\build\icons\fanyi.ico
UninstallDisplayIcon={app}\Fanyi.exe
UninstallDisplayName=Fanyi
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\..\dist\Fanyi\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Fanyi"; Filename: "{app}\Fanyi.exe"
Name: "{autodesktop}\Fanyi"; Filename: "{app}\Fanyi.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\Fanyi.exe"; Description: "{cm:LaunchProgram,Fanyi}"; Flags: nowait postinstall skipifsilent

[Code]
{ Settings, history and imported packs live in %LOCALAPPDATA%\Fanyi (platformdirs), outside {app}:
  the uninstaller removes the program, then asks before removing them. Silent uninstalls keep them. }
procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  UserData: String;
begin
  if CurUninstallStep = usPostUninstall then
  begin
    UserData := ExpandConstant('{localappdata}\Fanyi');
    if DirExists(UserData) and
       (SuppressibleMsgBox('Also remove your Fanyi settings, history and model packs?' + #13#10 + UserData,
                           mbConfirmation, MB_YESNO or MB_DEFBUTTON2, IDNO) = IDYES) then
      DelTree(UserData, True, True, True);
  end;
end;
